import ContractModel
import Testing

/// JSON Merge Patch (RFC 7396): `PATCH` bodies applied to stored items.
struct JSONMergePatchTests {
    private static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    /// RFC 7396 Appendix A, every row: original, patch, result.
    @Test(arguments: [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
        (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
        (#"{"a":"foo"}"#, #"null"#, #"null"#),
        (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
    ])
    func merging_GivesTheResultOfAppendixA_ForEachRow(original: String, patch: String, result: String) throws {
        let merged = try Self.json(original).merging(patch: Self.json(patch))
        #expect(merged == (try Self.json(result)))
    }

    @Test func merging_ChangesOnlyWhatThePatchNames_WhenTheDocumentOfSection3IsPatched() throws {
        // GIVEN the example document and patch of RFC 7396 §3
        let target = try Self.json(#"""
            {"title": "Goodbye!", "author": {"givenName": "John", "familyName": "Doe"},
             "tags": ["example", "sample"], "content": "This will be unchanged"}
            """#)
        let patch = try Self.json(#"""
            {"title": "Hello!", "phoneNumber": "+01-123-456-7890", "author": {"familyName": null}, "tags": ["example"]}
            """#)

        // WHEN it is applied
        let merged = target.merging(patch: patch)

        // THEN the result is the one §3 gives
        #expect(merged == (try Self.json(#"""
            {"title": "Hello!", "author": {"givenName": "John"}, "tags": ["example"],
             "content": "This will be unchanged", "phoneNumber": "+01-123-456-7890"}
            """#)))
    }

    @Test func merging_MergesRecursively_WhenObjectsAreNestedSeveralLevels() throws {
        let target = try Self.json(#"{"a":{"b":{"c":1,"d":2},"e":3},"f":4}"#)
        let patch = try Self.json(#"{"a":{"b":{"c":10,"d":null,"x":{"y":null,"z":true}}}}"#)
        #expect(target.merging(patch: patch) == (try Self.json(#"{"a":{"b":{"c":10,"x":{"z":true}},"e":3},"f":4}"#)))
    }

    @Test func merging_ReplacesANestedNonObject_WhenThePatchMemberIsAnObject() throws {
        // GIVEN members that are a number, an array and null (RFC 7396: a non-object target becomes {})
        let target = try Self.json(#"{"n":1,"list":[1,2],"gone":null}"#)
        let patch = try Self.json(#"{"n":{"v":1,"w":null},"list":{"0":"x"},"gone":{"k":[]}}"#)
        #expect(target.merging(patch: patch) == (try Self.json(#"{"n":{"v":1},"list":{"0":"x"},"gone":{"k":[]}}"#)))
    }

    @Test(arguments: [#"null"#, #"true"#, #"3"#, #""text""#, #"[1,{"a":1}]"#])
    func merging_StartsFromAnEmptyObject_WhenTheTargetIsNotAnObject(target: String) throws {
        let patch = try Self.json(#"{"a":1,"b":null,"c":{"d":null}}"#)
        #expect(try Self.json(target).merging(patch: patch) == (try Self.json(#"{"a":1,"c":{}}"#)))
    }

    @Test(arguments: [#"null"#, #"false"#, #"0"#, #""""#, #"[]"#, #"[null]"#])
    func merging_ReturnsThePatch_WhenThePatchIsNotAnObject(patch: String) throws {
        let target = try Self.json(#"{"a":{"b":1}}"#)
        #expect(target.merging(patch: try Self.json(patch)) == (try Self.json(patch)))
    }

    @Test func merging_LeavesTheTargetUnchanged_WhenThePatchIsAnEmptyObject() throws {
        let target = try Self.json(#"{"a":[1,null],"b":{"c":null}}"#)
        #expect(target.merging(patch: .object([:])) == target)
    }

    @Test func merging_KeepsNullsInsideArrays_WhenAnArrayIsSetWholesale() throws {
        let merged = try Self.json(#"{}"#).merging(patch: Self.json(#"{"a":[null,{"b":null}]}"#))
        #expect(merged == (try Self.json(#"{"a":[null,{"b":null}]}"#)))
    }

    @Test func merging_DoesNotOverflowTheStack_WhenNestedAsDeepAsTheReaderAllows() throws {
        // GIVEN a target and a patch nested 500 objects deep
        let depth = 500
        let open = String(repeating: #"{"a":"#, count: depth), close = String(repeating: "}", count: depth)
        let target = try Self.json(open + "1" + close)
        let patch = try Self.json(open + "2" + close)

        // WHEN merged
        let merged = target.merging(patch: patch)

        // THEN the innermost value is replaced (compared apart: a failure would print 500 levels)
        let isThePatch = merged == patch
        #expect(isThePatch)
    }
}
