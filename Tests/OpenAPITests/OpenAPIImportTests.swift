import ContractModel
import Foundation
import OpenAPI
import TestSupport
import Testing

/// Documents in the style of real ones, imported: what the contracts say, and what the report lists.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct OpenAPIImportTests {
    private func document(_ name: String) -> String { OpenAPITestFiles.documents + "/" + name }

    private func endpoint(_ id: String, in contracts: ContractSet, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> ContractEndpoint {
        try #require(contracts.endpoints.first { $0.id == id }, "no endpoint \(id)", sourceLocation: sourceLocation)
    }

    private func fixture(_ scenario: Scenario?, in contracts: ContractSet) throws -> JSONValue {
        let body = try #require(scenario?.body)
        return try OpenAPITestFiles.json(contracts.fixturesDirectory + "/" + body)
    }

    @Test func petStore_GivesAContractPerTag_WithParametersBodiesAuthAndScenarios() throws {
        let (scratch, outcome) = try OpenAPITestFiles.importing(document("petstore.json"))
        let contracts = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        #expect(contracts.contracts.map(\.domain).sorted() == ["pets", "store"])
        #expect(contracts.contracts.first { $0.domain == "pets" }?.description == "Everything about your pets")

        let list = try endpoint("listPets", in: contracts)
        #expect(list.request.query == ["limit": FieldType(kind: .integer, isOptional: true),
                                       "status": FieldType(kind: .string, isOptional: true)])
        #expect(!list.request.bearerAuth, "security: [] turns the document's bearer auth off")
        #expect(list.scenarios.map(\.name) == ["ok", "default"])
        #expect(list.scenarios.map(\.status) == [200, 500] && list.scenarios.map(\.expect) == [.success, .serverErr])
        #expect(list.scenarios[0].headers == ["x-next": "/pets?page=2"])
        // No example: one made from the schema, allOf merged, within maxItems.
        #expect(try fixture(list.scenarios[0], in: contracts)
                == JSONValue.parse(Array(#"[{"id": 1, "name": "string", "tag": "string", "callbackUrl": "https://example.com/"}]"#.utf8)))

        let create = try endpoint("createPet", in: contracts)
        #expect(create.request.bearerAuth)
        #expect(create.request.body?.kind == .json)
        #expect(create.request.body?.fields == ["name": FieldType(kind: .string), "tag": FieldType(kind: .string, isOptional: true),
                                                "callbackUrl": FieldType(kind: .string, isOptional: true)])
        #expect(create.scenarios.map(\.name) == ["created-cat", "created-dog", "unprocessableContent"])
        #expect(try fixture(create.scenarios[0], in: contracts)[pointer: "/name"] == .string("Tom"), "from components/examples")
        #expect(create.scenarios[1].description == "A dog")

        let show = try endpoint("showPetById", in: contracts)
        #expect(show.request.pathParams == ["petId": FieldType(kind: .integer)])
        #expect(show.request.headers == ["X-Request-ID": FieldType(kind: .string)])
        #expect(try fixture(show.scenario(named: "notFound"), in: contracts)[pointer: "/message"] == .string("pet not found"))
        #expect(try endpoint("deletePet", in: contracts).scenarios.first?.body == nil)

        let upload = try endpoint("uploadPhoto", in: contracts)
        #expect(upload.request.body?.kind == .multipart)
        #expect(upload.request.body?.fields == ["file": FieldType(kind: .file), "caption": FieldType(kind: .string, isOptional: true),
                                                "metadata": FieldType(kind: .json, isOptional: true)])
        #expect(upload.contentType == "text/plain")

        let order = try endpoint("placeOrder", in: contracts)
        #expect(order.request.body?.kind == .form)
        #expect(order.request.headers == ["X-API-Key": FieldType(kind: .string)], "the apiKey scheme")
        #expect(!order.request.bearerAuth)

        let skipped = outcome.report.skipped.map(\.description)
        #expect(skipped.contains("petstore.json: #/paths/~1pets/get/parameters/2: cookie parameter session is not checked (contracts do not read cookies)"))
        #expect(skipped.contains("petstore.json: #/paths/~1pets/post/callbacks: callbacks are not mocked"))
        #expect(outcome.summary.contains("validated: ok: 2 contracts, 6 endpoints"))
    }

    @Test func paginatedList_ServedUnderTheServersPath_WithOneScenarioPerNamedExample() throws {
        let (scratch, outcome) = try OpenAPITestFiles.importing(document("paginated.json"))
        let contracts = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        #expect(contracts.contracts.map(\.domain) == ["articles-api"], "no tags: the document's title")
        let list = try endpoint("getArticles", in: contracts)
        #expect(list.path.description == "/v2/articles")
        #expect(list.request.query == ["page": FieldType(kind: .integer, isOptional: true),
                                       "per_page": FieldType(kind: .integer),
                                       "q": FieldType(kind: .string, isOptional: true)])
        #expect(list.request.headers == ["If-None-Match": FieldType(kind: .string, isOptional: true)])
        #expect(list.scenarios.map(\.name) == ["ok-firstPage", "ok-lastPage", "notModified", "tooManyRequests", "status5XX"])
        #expect(list.scenarios.map(\.status) == [200, 200, 304, 429, 500])
        #expect(list.scenarios.map(\.expect) == [.success, .success, .networkFail, .requestErr, .serverErr])
        #expect(list.scenarios[1].description == "The last page: no next")
        #expect(try fixture(list.scenarios[1], in: contracts)[pointer: "/next"] == .null)
        #expect(list.scenarios[0].headers["X-Total-Count"] == "1" && list.scenarios[0].headers["Link"]?.hasPrefix("<https") == true)
        #expect(list.scenarios[3].headers == ["Retry-After": "30"])
        #expect(list.scenarios[3].contentType == "application/problem+json")
        #expect(try fixture(list.scenarios[3], in: contracts)[pointer: "/type"] == .string("about:blank"))

        let article = try endpoint("getArticlesByArticleId", in: contracts)
        let made = try fixture(article.scenarios.first, in: contracts)
        #expect(made[pointer: "/id"] == .string("00000000-0000-4000-8000-000000000000"))
        #expect(made[pointer: "/publishedAt"] == .string("2024-01-01T00:00:00Z") && made[pointer: "/tags"] == .array([.string("string")]))
        #expect(made[pointer: "/author"] == .string("user@example.com"))

        let skipped = outcome.report.skipped.map(\.description)
        #expect(skipped.contains { $0.contains("#/webhooks: webhooks are not mocked") })
        #expect(skipped.contains { $0.contains("#/paths/~1files~1{name}.txt/get: the path /files/{name}.txt has a parameter inside a segment") })
        #expect(skipped.contains { $0.contains("#/servers/0: paths are served under /v2") })
    }

    @Test func oneOfAndRefChains_AreResolved_AndRecursionCut() throws {
        let (scratch, outcome) = try OpenAPITestFiles.importing(document("polymorphic.json"))
        let contracts = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        let add = try endpoint("addShape", in: contracts)
        #expect(add.request.body?.fields == ["kind": FieldType(kind: .string), "color": FieldType(kind: .string),
                                             "radius": FieldType(kind: .number, isOptional: true),
                                             "side": FieldType(kind: .number, isOptional: true),
                                             "labels": FieldType(kind: .json, isOptional: true)])
        #expect(add.scenarios.map(\.name) == ["created", "badRequest-tooSmall", "badRequest-unknownKind"])
        #expect(try fixture(add.scenarios[1], in: contracts)[pointer: "/error"] == .string("radius must be positive"), "an example $ref chain")
        let shape = try fixture(try endpoint("getShape", in: contracts).scenarios.first, in: contracts)
        #expect(shape == (try JSONValue.parse(Array(#"""
            {"createdAt": "2024-01-01T00:00:00Z", "id": 1, "kind": "circle", "owner": "user@example.com", "radius": 1.5}
            """#.utf8))))
        #expect(try endpoint("getShape", in: contracts).request.pathParams == ["id": FieldType(kind: .integer)])
        let tree = try fixture(try endpoint("getTreesById", in: contracts).scenarios.first, in: contracts)
        #expect(tree == (try JSONValue.parse(Array(#"{"children": [], "value": 10}"#.utf8))))
        #expect(outcome.report.skipped.isEmpty)
    }

    @Test func yamlWithAnchorsAndAMergeKey_ImportsAsItsJSONWould() throws {
        let (scratch, outcome) = try OpenAPITestFiles.importing(document("inventory.yaml"))
        let contracts = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        #expect(contracts.contracts.map(\.domain) == ["stock"])
        #expect(contracts.contracts.first?.description == "What is on the shelves.\nQuantities are whole units.\n")
        let list = try endpoint("listItems", in: contracts)
        #expect(list.request.pathParams == ["warehouseId": FieldType(kind: .integer)], "an aliased path-level parameter")
        #expect(list.request.query == ["sku": FieldType(kind: .string, isOptional: true), "inStock": FieldType(kind: .boolean)])
        #expect(try fixture(list.scenarios.first, in: contracts) == JSONValue.parse(Array(#"""
            [{"quantity": 1, "sku": "SKU-001", "updatedAt": "2024-01-01T00:00:00Z"}]
            """#.utf8)))
        let add = try endpoint("addItem", in: contracts)
        #expect(add.request.bearerAuth)
        #expect(add.request.body?.fields == ["sku": FieldType(kind: .string), "quantity": FieldType(kind: .integer),
                                             "updatedAt": FieldType(kind: .string, isOptional: true)], "the anchored schema")
        #expect(add.scenarios.map(\.name) == ["created", "notFound"])
        #expect(try fixture(add.scenarios[1], in: contracts) == JSONValue.parse(Array(#"{"error": "not found"}"#.utf8)),
                "the anchored response")
        #expect(try endpoint("closeWarehouse", in: contracts).request.pathParams == ["warehouseId": FieldType(kind: .integer)])
        #expect(outcome.report.skipped.isEmpty)
    }

    /// The document FastAPI's own generator writes (`app.openapi()`, see fastapi/generate.sh).
    @Test func fastAPIsGeneratedDocument_Imports_WithItsOptionalsFormsFilesAndBearer() throws {
        let (scratch, outcome) = try OpenAPITestFiles.importing(document("fastapi/fastapi.json"))
        let contracts = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        #expect(contracts.contracts.map(\.domain).sorted() == ["auth", "books", "bookshelf", "reviews"])
        let list = try endpoint("list_books_books_get", in: contracts)
        #expect(list.request.query == ["genre": FieldType(kind: .string, isOptional: true),
                                       "q": FieldType(kind: .string, isOptional: true),
                                       "limit": FieldType(kind: .integer, isOptional: true)])
        #expect(list.scenarios.map(\.name) == ["ok", "unprocessableContent"])
        let books = try fixture(list.scenarios.first, in: contracts)
        #expect(books[pointer: "/0/genre"] == .string("fiction") && books[pointer: "/0/year"] == .number(1450))
        #expect(books[pointer: "/0/added_at"] == .string("2024-01-01T00:00:00Z"))
        let add = try endpoint("add_book_books_post", in: contracts)
        #expect(add.request.bearerAuth, "HTTPBearer")
        #expect(add.request.body?.fields == ["title": FieldType(kind: .string), "author": FieldType(kind: .string),
                                             "genre": FieldType(kind: .string), "year": FieldType(kind: .integer, isOptional: true),
                                             "tags": FieldType(kind: .json, isOptional: true)])
        let cover = try endpoint("upload_cover_books__book_id__cover_post", in: contracts)
        #expect(cover.request.body?.kind == .multipart)
        #expect(cover.request.body?.fields == ["cover": FieldType(kind: .file), "caption": FieldType(kind: .string, isOptional: true)])
        let login = try endpoint("login_login_post", in: contracts)
        #expect(login.request.body?.kind == .form)
        #expect(login.request.body?.fields == ["username": FieldType(kind: .string), "password": FieldType(kind: .string)])
        let delete = try endpoint("delete_book_books__book_id__delete", in: contracts)
        #expect(delete.scenarios.map(\.status) == [204, 404, 422] && delete.scenarios.first?.body == nil)
        #expect(try endpoint("health_health_get", in: contracts).domain == "bookshelf", "untagged: the title")
        #expect(outcome.report.skipped.isEmpty)
    }

    /// The OpenAPI Specification's own example documents (YAML), kept by the YAML reader's tests.
    @Test func theSpecificationsExamples_Import() throws {
        let examples = OpenAPITestFiles.root + "/Tests/ContractModelTests/OpenAPIExamples/"
        let (petScratch, petOutcome) = try OpenAPITestFiles.importing(examples + "petstore-expanded.yaml")
        let pets = try ContractLoader.load(contractsDirectory: petScratch.contracts, fixturesDirectory: petScratch.fixtures)
        #expect(pets.endpoints.map(\.id).sorted() == ["addPet", "deletePet", "find pet by id", "findPets"]
            .map { $0.replacing(" ", with: "_") }.sorted())
        #expect(try endpoint("findPets", in: pets).path.description == "/api/pets", "under the server's /api")
        #expect(try endpoint("findPets", in: pets).request.query == ["tags": FieldType(kind: .string, isOptional: true),
                                                                     "limit": FieldType(kind: .integer, isOptional: true)])
        #expect(petOutcome.report.skipped.map(\.message) == ["paths are served under /api, the server's path"])

        let (apiScratch, _) = try OpenAPITestFiles.importing(examples + "api-with-examples.yaml")
        let api = try ContractLoader.load(contractsDirectory: apiScratch.contracts, fixturesDirectory: apiScratch.fixtures)
        #expect(api.endpoints.count == 2)
        #expect(api.endpoints.flatMap(\.scenarios).compactMap(\.status).sorted() == [200, 200, 203, 300])

        let webhooks = try #require(throws: OpenAPIImportError.self) {
            _ = try OpenAPITestFiles.importing(examples + "webhook-example.yaml")
        }
        #expect(webhooks.lines == ["webhook-example.yaml: #: the document has webhooks but no paths; webhooks are not "
            + "mocked, so there is nothing to mock"])
    }

    @Test func rootPath_UnderABasePath_IsTheBasePath_AndAPathWithoutSlash_IsReported() throws {
        let text = #"""
            {"openapi": "3.1.0", "info": {"title": "Root", "version": "1"}, "servers": [{"url": "/api/"}],
             "paths": {"/": {"get": {"responses": {"200": {"description": "the index"}}}},
                       "pets": {"get": {"responses": {"200": {"description": "no slash"}}}}}}
            """#
        let (scratch, outcome) = try OpenAPITestFiles.importing(try OpenAPITestFiles.temporaryDocument("root.json", text))
        let contracts = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        #expect(contracts.endpoints.map(\.path.description) == ["/api"])
        #expect(contracts.endpoints.first?.id == "get")
        #expect(outcome.report.skipped.map(\.description).contains(
            "root.json: #/paths/pets/get: the path pets does not start with /, so this operation is not mocked"))
    }

    /// springdoc documents responses as `*/*`: the mock answers JSON for a structured body, text otherwise.
    @Test func mediaTypeRange_IsAnsweredAsJSONOrText_ByTheBody() throws {
        let text = #"""
            {"openapi": "3.0.1", "info": {"title": "Spring", "version": "1"},
             "paths": {"/pets": {"get": {"operationId": "pets", "responses": {
               "200": {"description": "OK", "content": {"*/*": {"schema": {"type": "array", "items": {"type": "string"}}}}},
               "404": {"description": "gone", "content": {"*/*": {"schema": {"type": "string"}}}}}}}}}
            """#
        let (scratch, outcome) = try OpenAPITestFiles.importing(try OpenAPITestFiles.temporaryDocument("spring.json", text))
        let contracts = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        let pets = try endpoint("pets", in: contracts)
        #expect(pets.contentType == "application/json")
        #expect(pets.scenarios.map(\.contentType) == [nil, "text/plain"])
        #expect(pets.scenarios.map(\.body) == ["spring/pets/ok.json", "spring/pets/notFound.txt"])
        #expect(outcome.report.skipped.map(\.message).contains("the range */* is answered as application/json"))
    }

    /// A contract's JSON body is an object: a body that may be an array (or anything, without a schema) is
    /// not checked, so the mock never refuses what the API takes.
    @Test func jsonBodyThatIsNotAnObject_IsNotChecked_AndReported() throws {
        let text = #"""
            {"openapi": "3.0.0", "info": {"title": "Bodies", "version": "1"}, "paths": {
              "/ids": {"post": {"operationId": "ids", "requestBody": {"required": true, "content": {
                "application/json": {"schema": {"type": "array", "items": {"type": "integer"}}}}},
                "responses": {"204": {"description": "ok"}}}},
              "/any": {"post": {"operationId": "any", "requestBody": {"required": true, "content": {"application/json": {}}},
                "responses": {"204": {"description": "ok"}}}}}}
            """#
        let (scratch, outcome) = try OpenAPITestFiles.importing(try OpenAPITestFiles.temporaryDocument("bodies.json", text))
        let contracts = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        #expect(try endpoint("ids", in: contracts).request.body == nil)
        #expect(try endpoint("any", in: contracts).request.body == nil)
        #expect(outcome.report.skipped.map(\.description) == [
            "bodies.json: #/paths/~1any/post/requestBody/content/application~1json: a JSON body without a schema is not checked",
            "bodies.json: #/paths/~1ids/post/requestBody/content/application~1json/schema: a JSON body that is not an "
                + "object (an array, a oneOf, a scalar) is not checked",
        ])
    }
}
