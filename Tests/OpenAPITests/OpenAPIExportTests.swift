import ContractModel
import Foundation
import OpenAPI
import Testing

/// The bundled contracts as an OpenAPI 3.1 document.
@Suite(.timeLimit(.minutes(2)))
struct OpenAPIExportTests {
    private func exported() throws -> JSONValue {
        OpenAPIExporter(contracts: try OpenAPITestFiles.bundledContracts()).document()
    }

    @Test func export_HasEveryEndpoint_AsAnOperationWithItsId() throws {
        let document = try exported()
        let contracts = try OpenAPITestFiles.bundledContracts()
        #expect(document[pointer: "/openapi"] == .string("3.1.0"))
        for endpoint in contracts.endpoints {
            let path = "/paths/" + endpoint.path.description.replacing("/", with: "~1") + "/" + endpoint.method.lowercased()
            #expect(document[pointer: path + "/operationId"] == .string(endpoint.id), "\(path)")
            #expect(document[pointer: path + "/tags/0"] == .string(endpoint.domain))
        }
        #expect(contracts.endpoints.count == 17)
    }

    @Test func export_DocumentsParameters_BodiesAndBearerSecurity() throws {
        let document = try exported()
        let list = try #require(document[pointer: "/paths/~1api~1products/get/parameters"]?.array)
        let pageNo = try #require(list.first { $0.object?["name"] == .string("page_no") })
        #expect(pageNo.object?["in"] == .string("query") && pageNo.object?["required"] == .bool(true))
        #expect(pageNo.value(at: "/schema/type") == .string("integer"))
        let mockHeaders = list.compactMap { $0.object?["name"]?.string }.filter { $0.hasPrefix("X-Mock-") }
        #expect(mockHeaders == ["X-Mock-Scenario", "X-Mock-Session"])
        #expect(list.allSatisfy { $0.object?["name"]?.string?.hasPrefix("X-Mock-") != true || $0.object?["required"] == .bool(false) })

        let multipart = "/paths/~1api~1products/post/requestBody/content/multipart~1form-data"
        #expect(document[pointer: multipart + "/schema/properties/images/format"] == .string("binary"))
        #expect(document[pointer: multipart + "/encoding/params/contentType"] == .string("application/json"))
        let update = "/paths/~1api~1products~1{id}/patch/requestBody/content/application~1json/schema"
        #expect(document[pointer: update + "/required"] == .array([.string("secret")]))
        #expect(document[pointer: update + "/properties/price/type"] == .array([.string("number"), .string("null")]))
        #expect(document[pointer: "/paths/~1api~1v1~1question~1today/get/security/0/bearer"] == .array([]))
        #expect(document[pointer: "/components/securitySchemes/bearer/scheme"] == .string("bearer"))
    }

    @Test func export_GivesEveryScenarioStatus_WithItsFixtureAsAnExample() throws {
        let document = try exported()
        let health = "/paths/~1healthChecker/get/responses"
        let ok = try #require(document[pointer: health + "/200/content/text~1plain; charset=utf-8/examples/success/$ref"]?.string)
        #expect(ok == "#/components/examples/health.ok.txt")
        #expect(document[pointer: "/components/examples/health.ok.txt/value"] == .string("OK"))
        #expect(document[pointer: health + "/429/headers/Retry-After/example"] == .string("30"))
        #expect(document[pointer: health + "/503"] != nil)
        // JSON fixtures are JSON values; a template keeps its text.
        #expect(document[pointer: "/components/examples/products.1.json/value/id"] == .number(1))
        let template = try #require(document[pointer: "/components/examples/questions.answered.json/value"]?.string)
        #expect(template.contains("{{body/myAnswer}}"))
        // A success's schema is inferred from its fixtures.
        let detail = "/paths/~1api~1products~1{id}/get/responses/200/content/application~1json/schema"
        #expect(document[pointer: detail + "/properties/id/type"] == .string("integer"))
        // The scenarios themselves, faults and sequences included, are in x-mock.
        let scenarios = try #require(document[pointer: "/paths/~1healthChecker/get/x-mock/scenarios"]?.array)
        #expect(scenarios.count == 8)
        #expect(scenarios.last?.object?["sequence"] == .array([.string("serverErr"), .string("serverErr"), .string("success")]))
    }

    @Test func export_IsStable_SortedAndPrettyPrinted() throws {
        let first = try exported().prettyPrinted()
        let second = try exported().prettyPrinted()
        #expect(first == second)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"components\": {"))
        #expect(text.hasSuffix("}\n"))
    }
}
