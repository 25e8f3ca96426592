import ContractModel
import Testing

/// Compact JSON text of a value (RFC 8259), as templates insert it.
struct JSONValueWritingTests {
    private static func text(_ value: JSONValue) -> String { String(decoding: value.serialized, as: UTF8.self) }

    @Test func string_EscapesQuotesBackslashesAndControlCharacters() {
        let value = JSONValue.string("a\"b\\c/\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}é€😀")
        #expect(Self.text(value) == #""a\"b\\c/\n\r\t\b\f\u0001\u001f"# + "\u{7F}é€😀\"")
    }

    @Test func escape_WritesTheContentOfAStringWithoutQuotes() {
        var bytes = Array("x=".utf8)
        JSONValue.escape("say \"hi\"\n", into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"x=say \"hi\"\n"#)
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (1.0, "1"), (-3.0, "-3"), (123_456_789_012_345.0, "123456789012345"),
        (1e15, "1000000000000000.0"), (1e16, "1e+16"), (1.5, "1.5"), (0.1, "0.1"), (-2.5e-7, "-2.5e-07"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
    ])
    func number_IsWholeWithoutAFraction_AndOtherwiseRoundTrips(number: Double, expected: String) throws {
        let text = Self.text(.number(number))
        #expect(text == expected)
        #expect(try JSONValue.parse(Array(text.utf8)) == .number(number))
    }

    @Test func number_IsNull_WhenNotFinite() {
        #expect(Self.text(.number(.infinity)) == "null")
        #expect(Self.text(.number(.nan)) == "null")
    }

    @Test func nesting_IsCompact_WithSortedKeys() throws {
        // GIVEN a document with nested containers and keys out of order
        let source = #"{"b": [1, {"d": null, "c": true}, [], {}], "a": "x", "B": false}"#
        let value = try JSONValue.parse(Array(source.utf8))

        // WHEN it is serialised
        let text = Self.text(value)

        // THEN it has no whitespace, keys sorted at every level, and reads back to the same value
        #expect(text == #"{"B":false,"a":"x","b":[1,{"c":true,"d":null},[],{}]}"#)
        #expect(try JSONValue.parse(Array(text.utf8)) == value)
    }

    @Test func deepNesting_IsWritten_WithoutRecursion() throws {
        let depth = 511
        let source = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let value = try JSONValue.parse(Array(source.utf8))
        #expect(Self.text(value) == source)
    }
}
