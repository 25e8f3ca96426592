import ContractModel
import Testing

struct JSONValuePrettyPrintingTests {
    @Test func prettyPrinted_IndentsBy2_SortsKeys_AndEndsWithALineBreak() throws {
        let value = try JSONValue.parse(Array(#"{"b":[1,{"d":null,"c":"x"}],"a":{},"e":[]}"#.utf8))
        let text = String(decoding: value.prettyPrinted(), as: UTF8.self)
        #expect(text == """
            {
              "a": {},
              "b": [
                1,
                {
                  "c": "x",
                  "d": null
                }
              ],
              "e": []
            }

            """)
        #expect(try JSONValue.parse(value.prettyPrinted()) == value)
    }

    @Test func prettyPrinted_PutsKeysOfKeyOrderFirst_ExceptUnderPlainKeys() throws {
        let value = try JSONValue.parse(Array(#"{"z":1,"name":2,"query":{"name":1,"a":2}}"#.utf8))
        let text = String(decoding: value.prettyPrinted(keyOrder: ["name", "query"], plainUnder: ["query"]), as: UTF8.self)
        #expect(text == """
            {
              "name": 2,
              "query": {
                "a": 2,
                "name": 1
              },
              "z": 1
            }

            """)
    }

    @Test func prettyPrinted_WritesADeeplyNestedValue_WithoutRecursion() throws {
        var value = JSONValue.null
        for _ in 0..<500 { value = .array([value]) }
        #expect(try JSONValue.parse(value.prettyPrinted()) == value)
    }
}
