import ContractModel
import Foundation
import OpenAPI
import TestSupport

/// The repository's contracts and the test documents, and imports into scratch folders.
enum OpenAPITestFiles {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = here.deletingLastPathComponent().deletingLastPathComponent().path
    static let documents = here.path + "/OpenAPIDocuments"

    static func bundledContracts() throws -> ContractSet {
        try ContractLoader.load(contractsDirectory: root + "/Contracts", fixturesDirectory: root + "/Fixtures")
    }

    /// Imports `document` into fresh folders, returning them (removed when released) and the outcome.
    static func importing(_ document: String, force: Bool = false, into scratch: ScratchContracts? = nil)
        throws -> (scratch: ScratchContracts, outcome: OpenAPIImport.Outcome)
    {
        let folders = try scratch ?? ScratchContracts()
        let outcome = try OpenAPIImport(specFile: document, contractsDirectory: folders.contracts,
                                        fixturesDirectory: folders.fixtures, force: force).run()
        return (folders, outcome)
    }

    /// Writes `text` to a temporary file named `name` and returns its path.
    static func temporaryDocument(_ name: String, _ text: String) throws -> String {
        let path = try TestTemporaryFolder.folder("openapi") + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func json(_ path: String) throws -> JSONValue {
        try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

extension JSONValue {
    /// The value at a JSON pointer, for tests: `document[pointer: "/paths/~1pets/get"]`.
    subscript(pointer pointer: String) -> JSONValue? { value(at: pointer) }

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var object: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
    var array: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
}
