@testable import ContractModel
import Foundation
import Testing

/// The one writer against the one reader: every contract this package ships or tests, read, written and read
/// again, is the same model; and the contract that uses every key of the format keeps each one.
struct ContractWriterTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The bundled contracts, the example app's, and every-key.json.
    static let files = ["Contracts/health.json", "Contracts/products.json", "Contracts/questions.json",
                        "Examples/TodoApp/Contracts/todos.json", "Tests/ContractModelTests/Contracts/every-key.json"]

    private static func parse(_ document: JSONValue, file: String) throws -> Contract {
        var parser = ContractParser(file: file)
        let contract = parser.parse(document)
        #expect(parser.problems.isEmpty, "\(parser.problems)")
        return try #require(contract)
    }

    private static func document(_ file: String) throws -> JSONValue {
        try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + file))))
    }

    @Test(arguments: files)
    func contract_ReadsBackAsTheSameModel_OnceWritten(file: String) throws {
        // GIVEN a contract as read from its file
        let read = try Self.parse(try Self.document(file), file: file)
        // WHEN it is written and the bytes are read again
        let bytes = ContractWriter.bytes(ContractWriter.document(read))
        let again = try Self.parse(try JSONValue.parse(bytes), file: file)
        // THEN nothing was lost or changed, and writing is stable
        #expect(again == read)
        #expect(ContractWriter.bytes(ContractWriter.document(again)) == bytes)
    }

    @Test func everyKeyContract_UsesEveryKeyOfTheFormat() throws {
        // A key added to the schema (so the parser takes it) fails here until every-key.json uses it, and then
        // the round trip above fails until the writer writes it.
        let used = Self.keys(in: try Self.document("Tests/ContractModelTests/Contracts/every-key.json"))
        #expect(Set(ContractSchema.writingOrder).subtracting(used).sorted() == [])
    }

    @Test func everyKeyContract_IsWrittenWithEveryKeyItHad() throws {
        let document = try Self.document("Tests/ContractModelTests/Contracts/every-key.json")
        let written = ContractWriter.document(try Self.parse(document, file: "every-key.json"))
        #expect(Self.keys(in: written) == Self.keys(in: document))
    }

    @Test func writingOrder_HoldsEveryKeyOnce() {
        #expect(Set(ContractSchema.writingOrder).count == ContractSchema.writingOrder.count)
        for object in ContractSchema.Object.allCases {
            #expect(!ContractSchema.keys(of: object).isEmpty, "\(object)")
        }
    }

    @Test func bytes_PutKeysInTheFormatsOrder_AndNamesInAMapSorted() throws {
        let document = JSONValue.object([
            "scenarios": .array([.object(["expect": .string("success"), "status": .integer(200), "name": .string("ok")])]),
            "path": .string("/x"), "id": .string("x"), "method": .string("GET"),
            "request": .object(["query": .object(["b": .string("string"), "a": .string("integer")])]),
        ])
        let text = String(decoding: ContractWriter.bytes(document), as: UTF8.self)
        let order = ["\"id\"", "\"method\"", "\"path\"", "\"request\"", "\"a\"", "\"b\"", "\"scenarios\"", "\"name\"",
                     "\"status\"", "\"expect\""]
        let positions = try order.map { try #require(text.range(of: $0)?.lowerBound, "\($0)") }
        #expect(positions == positions.sorted())
    }

    /// The keys of the format in `value`: every object's keys, but not the names inside a name map.
    private static func keys(in value: JSONValue, underNameMap: Bool = false) -> Set<String> {
        switch value {
        case .object(let members):
            var found: Set<String> = underNameMap ? [] : Set(members.keys)
            for (key, member) in members {
                found.formUnion(keys(in: member, underNameMap: !underNameMap && ContractSchema.nameMaps.contains(key)))
            }
            return found
        case .array(let items):
            return items.reduce(into: []) { $0.formUnion(keys(in: $1)) }
        default:
            return []
        }
    }
}
