import ContractModel
import Testing
@testable import Verifier

/// The shape check: every key path of the fixture in the answer with the same JSON type.
@Suite struct ShapeComparisonTests {
    private func compare(_ fixture: String, _ backend: String) throws -> (drift: [String], extra: [String]) {
        let result = ShapeComparison.compare(fixture: try JSONValue.parse(Array(fixture.utf8)),
                                             backend: try JSONValue.parse(Array(backend.utf8)))
        return (result.drift.map(\.description), result.extra.map(\.description))
    }

    @Test func sameShape_OtherValues_IsNoDrift() throws {
        let result = try compare(#"{"id":1,"name":"Pen","tags":["a"],"price":1.5}"#,
                                 #"{"id":2,"name":"Ink","tags":["b","c"],"price":3}"#)
        #expect(result.drift.isEmpty && result.extra.isEmpty)
    }

    @Test func changedType_AndMissingKey_AreDrift_ByPointer() throws {
        let result = try compare(#"{"items":[{"price":1.5,"name":"Pen"}],"total":1}"#,
                                 #"{"items":[{"price":"1.50"},{"price":2,"name":"Ink"}],"total":"1"}"#)
        #expect(result.drift == [
            "/items/0/name: missing from the backend's answer (fixture string)",
            "/items/0/price: fixture number, backend string",
            "/total: fixture number, backend string",
        ])
    }

    @Test func nullInTheFixture_MatchesAnyType_AndExtraKeysAreApart() throws {
        let result = try compare(#"{"next":null,"a~b":{"c/d":true}}"#, #"{"next":"p2","a~b":{"c/d":false,"new":1}}"#)
        #expect(result.drift.isEmpty)
        #expect(result.extra == ["/a~0b/new: only in the backend's answer (number)"])
    }

    @Test func arraysAndObjects_AreTypesToo() throws {
        #expect(try compare(#"{"a":[]}"#, #"{"a":{}}"#).drift == ["/a: fixture array, backend object"])
        #expect(try compare(#"[{"a":1}]"#, #"[]"#).drift.isEmpty, "an empty answer array has no item to differ")
        #expect(try compare(#"{"a":1}"#, #"[1]"#).drift == ["the body: fixture object, backend array"])
    }

    @Test func aDifferenceManyItemsShare_IsReportedOnce_AtTheFirst() throws {
        let result = try compare(#"[{"id":1,"name":"a"}]"#, #"[{"id":"1"},{"id":"2"},{"id":3,"name":"c"}]"#)
        #expect(result.drift == ["/0/id: fixture number, backend string",
                                 "/0/name: missing from the backend's answer (fixture string)"])
    }

    @Test func templateFixture_ReadsPlaceholdersOutsideStringsAsAnyType() throws {
        let shape = try #require(ShapeComparison.templateShape(Array(#"{"id": {{path.id}}, "q": "{{query.q|x}}", "n": 1}"#.utf8)))
        #expect(shape == .object(["id": .null, "q": .string("{{query.q|x}}"), "n": .number(1)]))
        #expect(ShapeComparison.templateShape(Array(#"{"a": }"#.utf8)) == nil)
    }
}
