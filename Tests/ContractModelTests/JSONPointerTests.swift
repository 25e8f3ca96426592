import ContractModel
import Testing

/// RFC 6901 JSON pointers into a parsed document, as `{{body/…}}` placeholders use them.
struct JSONPointerTests {
    /// The document of RFC 6901 §5.
    private static let document = try? JSONValue.parse(Array(#"""
        {
           "foo": ["bar", "baz"],
           "": 0,
           "a/b": 1,
           "c%d": 2,
           "e^f": 3,
           "g|h": 4,
           "i\\j": 5,
           "k\"l": 6,
           " ": 7,
           "m~n": 8
        }
        """#.utf8))

    /// Every row of the table in RFC 6901 §5, in its JSON string representation.
    @Test(arguments: [
        ("/foo", #"["bar","baz"]"#),
        ("/foo/0", #""bar""#),
        ("/", "0"),
        ("/a~1b", "1"),
        ("/c%d", "2"),
        ("/e^f", "3"),
        ("/g|h", "4"),
        (#"/i\j"#, "5"),
        (#"/k"l"#, "6"),
        ("/ ", "7"),
        ("/m~0n", "8"),
    ])
    func value_IsTheRFCExample_ForEachPointer(pointer: String, expected: String) throws {
        let document = try #require(Self.document)
        #expect(document.value(at: pointer) == (try JSONValue.parse(Array(expected.utf8))))
    }

    @Test func value_IsTheWholeDocument_WhenThePointerIsEmpty() throws {
        let document = try #require(Self.document)
        #expect(document.value(at: "") == document)
    }

    @Test(arguments: ["foo", "/foo/01", "/foo/-", "/foo/2", "/foo/x", "/foo/0/x", "/foo/-1", "/m~2n", "/m~", "/nope",
                      "/foo/99999999999999999999999"])
    func value_IsNil_WhenThePointerMatchesNothing(pointer: String) throws {
        let document = try #require(Self.document)
        #expect(document.value(at: pointer) == nil)
    }

    @Test func unescaping_ReadsTildeOneBeforeTildeZero_AsOnePass() {
        // GIVEN keys that differ only in the order of their escapes
        let document = JSONValue.object(["~1": .number(1), "/": .number(2)])

        // THEN `~01` is `~` then `1`, never `/`
        #expect(document.value(at: "/~01") == .number(1))
        #expect(document.value(at: "/~1") == .number(2))
    }

    @Test(arguments: [("", true), ("/a/0", true), ("/~0~1", true), ("a", false), ("/a~", false), ("/a~2", false)])
    func isValidPointer_ChecksTheSyntaxOnly(pointer: String, valid: Bool) {
        #expect(JSONValue.isValidPointer(pointer) == valid)
    }
}
