import ContractModel
import Testing

/// Anchors, aliases and merge keys, and the limits that keep a hostile document from exhausting memory or
/// the stack.
struct YAMLAnchorTests {
    @Test func alias_IsACopyOfItsAnchorsValue() {
        expectYAML("""
            definitions:
              error: &error {type: object, properties: {code: {type: integer}}}
              name: &name Pet
            responses:
              400: *error
              500: *error
            title: *name
            list: [&x 1, *x]
            """, equalsJSON: #"""
            {"definitions":{"error":{"type":"object","properties":{"code":{"type":"integer"}}},"name":"Pet"},
             "responses":{"400":{"type":"object","properties":{"code":{"type":"integer"}}},
                          "500":{"type":"object","properties":{"code":{"type":"integer"}}}},
             "title":"Pet","list":[1,1]}
            """#)
    }

    @Test func anchor_MayBeRedefined_AndAnAliasUsesTheLatest() {
        expectYAML("- &a 1\n- *a\n- &a 2\n- *a\n", equalsJSON: "[1,1,2,2]")
    }

    @Test func anchoredKey_MayBeUsedAsAKeyOrAValue() {
        expectYAML("&k id: 1\nother: *k\nnested:\n  *k : 2\n", equalsJSON: #"{"id":1,"other":"id","nested":{"id":2}}"#)
    }

    @Test func unknownAlias_IsRefused() {
        expectYAMLError("a: *nowhere\n", line: 1, column: 4, "no anchor '&nowhere' comes before this alias")
        expectYAMLError("a: *later\nb: &later 1\n", line: 1, column: 4, "no anchor '&later'")
    }

    @Test func recursiveAlias_IsRefused() {
        expectYAMLError("a: &a\n  b: *a\n", line: 2, column: 6, "is inside the node it refers to")
    }

    @Test func mergeKey_MergesMappings_AndWrittenKeysWin() {
        expectYAML("""
            base: &base {x: 1, y: 2}
            more: &more {y: 20, z: 30}
            one:
              <<: *base
              y: 3
            many:
              x: 0
              <<: [*more, *base]
            inline:
              <<: {a: 1}
            quoted:
              '<<': not a merge
            """, equalsJSON: #"""
            {"base":{"x":1,"y":2},"more":{"y":20,"z":30},"one":{"x":1,"y":3},"many":{"x":0,"y":20,"z":30},
             "inline":{"a":1},"quoted":{"<<":"not a merge"}}
            """#)
    }

    @Test func mergeKey_OfSomethingElse_IsRefused() {
        expectYAMLError("a:\n  <<: 1\n", line: 2, column: 7, "'<<' merges a mapping, or a list of mappings")
        expectYAMLError("a:\n  <<: [{x: 1}, 2]\n", line: 2, column: 7, "found a number")
        expectYAMLError("a: {<<: {x: 1}, <<: {y: 2}}\n", line: 1, column: 17, "the key '<<' appears twice")
    }

    @Test func billionLaughs_IsRefused_BeforeItExpands() {
        // GIVEN the classic document: each level nine aliases of the one before, 9^9 strings in all
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let previous = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(previous)]\n"
        }
        // THEN reading stops at the alias that passes the cap
        do {
            _ = try yaml(text)
            Issue.record("a billion laughs was read")
        } catch {
            #expect(error.reason.contains("aliases expand to more than 1000000 nodes"), "\(error)")
            #expect(error.line == 7, "\(error)")
        }
    }

    @Test func aliases_UpToTheCap_AreRead() throws {
        // GIVEN 900 aliases of a 1,000-node list: 900,000 aliased nodes, under the cap
        let items = Array(repeating: "1", count: 999).joined(separator: ", ")
        let text = "base: &b [\(items)]\nuses: [\(Array(repeating: "*b", count: 900).joined(separator: ", "))]\n"
        guard case .object(let document) = try yaml(text), case .array(let uses)? = document["uses"] else {
            Issue.record("not read")
            return
        }
        #expect(uses.count == 900)
    }

    // MARK: - Nesting

    @Test(arguments: [("[", "]"), ("{a: ", "}"), ("- ", "")])
    func nesting_Of512_IsRead_And513_IsRefused(opener: String, closer: String) throws {
        func document(depth: Int) -> String {
            String(repeating: opener, count: depth) + "1" + String(repeating: closer, count: depth)
        }
        _ = try yaml(document(depth: 512))
        do {
            _ = try yaml(document(depth: 513))
            Issue.record("513 levels were read")
        } catch {
            #expect(error.reason.contains("nested more than 512 levels"), "\(error)")
        }
    }

    @Test func alias_ThatNestsTooDeep_IsRefused() {
        let deep = String(repeating: "[", count: 300) + "1" + String(repeating: "]", count: 300)
        let text = "a: &a \(deep)\nb: " + String(repeating: "[", count: 300) + "*a" + String(repeating: "]", count: 300)
        expectYAMLError(text, line: 2, column: 304, "this alias nests the document more than 512 levels")
    }
}
