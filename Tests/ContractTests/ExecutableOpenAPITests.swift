import Foundation
import TestSupport
import Testing

/// `mock-server openapi export` and `openapi import`, run as users run them.
@Suite(.timeLimit(.minutes(2)))
struct ExecutableOpenAPITests {
    private static let documents = ContractCatalog.root + "/Tests/OpenAPITests/OpenAPIDocuments"

    private func document(_ name: String, _ text: String) throws -> String {
        let path = try TestTemporaryFolder.folder("openapi") + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func importing(_ spec: String, into scratch: ScratchContracts, _ extra: [String] = []) async throws
        -> (status: Int32, output: String, error: String) {
        try await ExecutableTests.run(["openapi", "import", spec, "--contracts", scratch.contracts,
                                       "--fixtures", scratch.fixtures] + extra)
    }

    @Test func export_WritesTheDocument_ToAFileOrStandardOutput() async throws {
        let scratch = try ScratchContracts()
        let file = scratch.root + "/openapi.json"
        let written = try await ExecutableTests.run(["openapi", "export", "--contracts", ContractCatalog.contractsDirectory,
                                                     "--fixtures", ContractCatalog.fixturesDirectory, "-o", file])
        #expect(written.status == 0, "\(written.error)")
        #expect(written.error.contains("wrote \(file): 17 operations from 3 contracts"))
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(#""openapi": "3.1.0""#))
        let printed = try await ExecutableTests.run(["openapi", "export", "--contracts", ContractCatalog.contractsDirectory,
                                                     "--fixtures", ContractCatalog.fixturesDirectory])
        #expect(printed.status == 0 && printed.output == text, "the same bytes either way")
        let broken = try await ExecutableTests.run(["openapi", "export", "--contracts", "/nonexistent"])
        #expect(broken.status == 1 && broken.error.contains("contracts folder not found"))
    }

    static let badDocuments: [(name: String, text: String, message: String)] = [
        ("package.json", #"{"name": "not an API"}"#, #"package.json: not an OpenAPI document: it has no "openapi" version field"#),
        ("swagger.json", #"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#,
         "swagger.json: #/swagger: OpenAPI 2.0 (Swagger) is not supported"),
        ("broken.json", "{\n  \"openapi\": \"3.0.0\",\n  \"paths\": {\n    \"/a\": }\n}", "broken.json:4:11: not valid JSON"),
        ("dangling.json", ##"{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/components/responses/Nope"}}}}}}"##,
         ##"dangling.json: #/paths/~1a/get/responses/200/$ref: "#/components/responses/Nope" points to nothing in the document"##),
        ("external.json", #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"responses": {"200": {"$ref": "shared.json#/Ok"}}}}}}"#,
         #"external.json: #/paths/~1a/get/responses/200/$ref: "shared.json#/Ok" points into another document"#),
        ("broken.yaml", "openapi: 3.1.0\npaths:\n  /a: {get: [1, 2\n",
         "broken.yaml:4:1: not valid YAML: expected ',' or ']' in the flow sequence that starts at line 3, column 13"),
        ("future.json", #"{"openapi": "3.2.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#,
         "future.json: #/openapi: OpenAPI 3.2.0 is not supported"),
    ]

    @Test(arguments: badDocuments)
    func import_OfBadInput_ExitsOne_NamingThePlace_AndWritesNothing(name: String, text: String, message: String) async throws {
        let scratch = try ScratchContracts()
        let result = try await importing(try document(name, text), into: scratch)
        #expect(result.status == 1)
        #expect(result.error.contains("mock-server: error: " + message) || result.error.contains("error: " + message),
                "\(result.error)")
        #expect(result.error.contains("import failed; nothing was written"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.contracts).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.fixtures).isEmpty)
    }

    @Test func import_ThenValidate_ThenReImport_KeepsTheEditedFile() async throws {
        // GIVEN the pet store imported
        let scratch = try ScratchContracts()
        let spec = Self.documents + "/petstore.json"
        let first = try await importing(spec, into: scratch)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.contains("imported 6 endpoints and 12 scenarios into 2 contract(s): pets.json, store.json"))
        #expect(first.output.contains("petstore.json: #/paths/~1pets/post/callbacks: callbacks are not mocked"))
        #expect(first.output.contains("validated: ok: 2 contracts, 6 endpoints, 12 scenarios"))
        let validate = try await ExecutableTests.run(["validate", "--contracts", scratch.contracts, "--fixtures", scratch.fixtures])
        #expect(validate.status == 0)

        // WHEN a person edits a contract and imports again
        let contract = scratch.contracts + "/pets.json"
        let edited = try String(contentsOfFile: contract, encoding: .utf8).replacing("Everything about your pets", with: "Mine")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: contract))
        let second = try await importing(spec, into: scratch)

        // THEN the edit stays, and --force replaces it
        #expect(second.status == 0)
        #expect(second.output.contains("kept 1 file(s) edited since the last import (--force overwrites them):\n  \(contract)"))
        #expect(try String(contentsOfFile: contract, encoding: .utf8) == edited)
        let forced = try await importing(spec, into: scratch, ["--force"])
        #expect(forced.status == 0 && forced.output.contains("wrote 1 contract file(s) and 0 fixture file(s)"))
        #expect(try String(contentsOfFile: contract, encoding: .utf8).contains("Everything about your pets"))
    }

    @Test(arguments: [
        (["openapi"], "openapi needs a subcommand: export or import"),
        (["openapi", "frob"], "unknown openapi subcommand 'frob'"),
        (["openapi", "import"], "openapi import needs the document to read"),
        (["openapi", "import", "x.json", "--fixtures", "F"], "openapi import needs --contracts <dir>"),
        (["openapi", "export", "--port", "1"], "openapi export does not take --port"),
        (["--force"], "--force belongs to the openapi subcommands"),
    ])
    func openAPI_UsageErrors_ExitTwo(arguments: [String], message: String) async throws {
        let result = try await ExecutableTests.run(arguments)
        #expect(result.status == 2)
        #expect(result.error.contains(message), "\(result.error)")
    }
}
