import ContractModel
import Foundation
import OpenAPI
import TestSupport
import Testing

/// Input that cannot be imported is refused with its place named, and nothing is written; a re-import
/// keeps what a person edited.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct OpenAPIImportFailureTests {
    /// Imports `text` as a document named `name` into fresh folders and returns the error's lines.
    private func failure(_ name: String, _ text: String) throws -> (lines: [String], scratch: ScratchContracts) {
        let file = try OpenAPITestFiles.temporaryDocument(name, text)
        let scratch = try ScratchContracts()
        let error = try #require(throws: OpenAPIImportError.self) {
            _ = try OpenAPITestFiles.importing(file, into: scratch)
        }
        return (error.lines, scratch)
    }

    static let minimal = #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"responses": {"200": %RESPONSE%}}}}}
        """#

    static let badInputs: [(name: String, text: String, expected: String)] = [
        ("not-openapi.json", #"{"name": "a package.json, perhaps"}"#,
         #"not-openapi.json: not an OpenAPI document: it has no "openapi" version field"#),
        ("swagger.json", #"{"swagger": "2.0", "info": {}, "paths": {}}"#,
         "swagger.json: #/swagger: OpenAPI 2.0 (Swagger) is not supported; convert it to OpenAPI 3 first"),
        ("broken.json", "{\n  \"openapi\": \"3.1.0\",\n  \"paths\": {,}\n}", "broken.json:3:13: not valid JSON"),
        ("array.json", "[1, 2]", "array.json: not an OpenAPI document: the top level is array"),
        ("future.json", #"{"openapi": "3.2.0", "info": {}, "paths": {}}"#,
         "future.json: #/openapi: OpenAPI 3.2.0 is not supported; import reads 3.0 and 3.1 documents"),
        ("dangling.json", minimal.replacing("%RESPONSE%", with: ##"{"$ref": "#/components/responses/Gone"}"##),
         ##"dangling.json: #/paths/~1a/get/responses/200/$ref: "#/components/responses/Gone" points to nothing in the document"##),
        ("external.json", minimal.replacing("%RESPONSE%", with: #"{"$ref": "common.yaml#/responses/Ok"}"#),
         #"external.json: #/paths/~1a/get/responses/200/$ref: "common.yaml#/responses/Ok" points into another document"#),
        ("nopaths.json", #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "components": {}}"#,
         "nopaths.json: #: the document has no paths, so there is nothing to mock"),
        ("broken.yaml", "openapi: 3.0.0\ninfo:\n  title: t\n   version: 1\npaths: {}\n",
         "broken.yaml:4:11: not valid YAML: ': ' is not allowed here"),
        ("two.yml", "openapi: 3.1.0\n---\npaths: {}\n", "two.yml:2:1: not valid YAML: a second YAML document starts here"),
        ("badcode.json", minimal.replacing(#""200": %RESPONSE%"#, with: #""20x": {"description": "?"}"#),
         #"badcode.json: #/paths/~1a/get/responses/20x: "20x" is not a status code, a range such as 4XX, or default"#),
    ]

    @Test(arguments: badInputs)
    func badInput_IsRefused_WithItsPlace_AndWritesNothing(name: String, text: String, expected: String) throws {
        let (lines, scratch) = try failure(name, text)
        #expect(lines.contains { $0.hasPrefix(expected) }, "\(lines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.contracts).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.fixtures).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).sorted() == ["Contracts", "Fixtures"],
                "no staging folder left behind")
    }

    @Test func importThatClashesWithContractsAlreadyThere_IsRolledBack_LeavingThemAsTheyWere() throws {
        // GIVEN a contracts folder that already has an endpoint with the id listPets
        let existing = #"""
            {"domain": "mine", "endpoints": [{"id": "listPets", "method": "GET", "path": "/mine",
             "scenarios": [{"name": "ok", "status": 200, "expect": "success"}]}]}
            """#
        let scratch = try ScratchContracts(contracts: [("mine.json", existing)])

        // WHEN the pet store is imported into it
        let error = try #require(throws: OpenAPIImportError.self) {
            _ = try OpenAPITestFiles.importing(OpenAPITestFiles.documents + "/petstore.json", into: scratch)
        }

        // THEN it says why, and the folders hold what they held
        #expect(error.lines.contains { $0.contains(#"endpoint id "listPets" is also used in"#) }, "\(error.lines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.contracts) == ["mine.json"])
        #expect(try String(contentsOfFile: scratch.contracts + "/mine.json", encoding: .utf8) == existing)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.fixtures).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).sorted() == ["Contracts", "Fixtures"])
    }

    @Test func reImport_KeepsAFileAPersonEdited_UnlessForced_AndRewritesTheOthers() throws {
        // GIVEN an import, and then an edited contract and a removed fixture
        let spec = OpenAPITestFiles.documents + "/petstore.json"
        let (scratch, first) = try OpenAPITestFiles.importing(spec)
        #expect(first.written.count == 12)
        let contract = scratch.contracts + "/store.json"
        var edited = try String(contentsOfFile: contract, encoding: .utf8)
        edited = edited.replacing(#""description": "The order""#, with: #""description": "Edited by hand""#)
        try Data(edited.utf8).write(to: URL(fileURLWithPath: contract))
        try FileManager.default.removeItem(atPath: scratch.fixtures + "/pets/listPets/ok.json")

        // WHEN it is imported again
        let second = try OpenAPITestFiles.importing(spec, into: scratch).outcome

        // THEN the edited file is kept and named, the missing one written again, the rest left alone
        #expect(second.report.kept == [contract])
        #expect(try String(contentsOfFile: contract, encoding: .utf8) == edited)
        #expect(second.written == ["fixtures/pets/listPets/ok.json"])
        #expect(second.unchanged == 10)
        #expect(second.summary.contains("kept 1 file(s) edited since the last import (--force overwrites them):"))

        // AND with force it is overwritten
        let forced = try OpenAPITestFiles.importing(spec, force: true, into: scratch).outcome
        #expect(forced.written == ["contracts/store.json"] && forced.report.kept.isEmpty)
        #expect(try String(contentsOfFile: contract, encoding: .utf8).contains("The order"))
    }
}
