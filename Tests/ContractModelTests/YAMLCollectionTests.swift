import ContractModel
import Testing

/// Block and flow collections, and mapping keys, as OpenAPI documents write them.
struct YAMLCollectionTests {
    @Test func blockMapping_IsAnObject_NestedByIndentation() {
        expectYAML("""
            openapi: 3.1.0
            info:
              title: Pets
              version: '1.0'
              contact:
                name: API team
            """, equalsJSON: #"""
            {"openapi":"3.1.0","info":{"title":"Pets","version":"1.0","contact":{"name":"API team"}}}
            """#)
    }

    @Test func blockSequence_IsAnArray_OfAnyValues() {
        expectYAML("- a\n- 2\n- - nested\n  - 3\n- key: value\n", equalsJSON: #"["a",2,["nested",3],{"key":"value"}]"#)
    }

    @Test func sequenceUnderAKey_MayStartAtTheKeysColumn() {
        // GIVEN the "compact" layout most YAML emitters write
        let text = """
            tags:
            - pets
            - store
            servers:
              - url: https://a
            """
        // THEN both layouts give arrays
        expectYAML(text, equalsJSON: #"{"tags":["pets","store"],"servers":[{"url":"https://a"}]}"#)
    }

    @Test func sequenceOfMappings_ContinuesEachMappingUnderItsDash() {
        expectYAML("""
            parameters:
            - name: limit
              in: query
              required: false
            - name: id
              in: path
            """, equalsJSON: #"""
            {"parameters":[{"name":"limit","in":"query","required":false},{"name":"id","in":"path"}]}
            """#)
    }

    @Test func emptyValues_AreNull() {
        expectYAML("a:\nb: ~\nc:\n- \n-\n", equalsJSON: #"{"a":null,"b":null,"c":[null,null]}"#)
    }

    @Test func flowCollections_NestAndSpanLines() {
        expectYAML("""
            enum: [available, pending, sold]
            example: {id: 1, tags: [a, "b, c"], owner: {name: 'Ann'}, empty: {}, none: []}
            multi: [
              1, 2,
              {x: y},
            ]
            """, equalsJSON: #"""
            {"enum":["available","pending","sold"],
             "example":{"id":1,"tags":["a","b, c"],"owner":{"name":"Ann"},"empty":{},"none":[]},
             "multi":[1,2,{"x":"y"}]}
            """#)
    }

    @Test func flowMapping_KeyWithoutValue_IsNull_AndFlowSequencePair_IsAMapping() {
        expectYAML("{a, b: 1, c: }", equalsJSON: #"{"a":null,"b":1,"c":null}"#)
        expectYAML("[a: 1, b]", equalsJSON: #"[{"a":1},"b"]"#)
    }

    @Test func jsonDocument_ReadsAsTheJSONReaderReadsIt() throws {
        // GIVEN a JSON document with the features of JSON: escapes, numbers, nesting, adjacent colons
        let text = #"""
            {"name":"caf\u00e9 \ud83d\ude00","n":[-1.5e3,0,2E-2,true,false,null],"o":{"a/b":"\/"},
             "e":{},"l":[]}
            """#
        // THEN YAML, a superset of JSON, reads the same value
        #expect(try yaml(text) == json(text))
    }

    @Test func flowMappingKey_MayBeLongerThan1024Characters_AsInJSON() throws {
        // Found by the fuzz target: a JSON document with a long key was refused as YAML.
        let text = #"{"a": {"\#(String(repeating: "k", count: 2_000))": 1, "b": 2}}"#
        #expect(try yaml(text) == json(text))
    }

    @Test func blockMappingKey_IsLimitedTo1024Characters() {
        expectYAMLError(String(repeating: "k", count: 1_100) + ": 1\n", line: 1, column: 1_101,
                        "': ' is not allowed here")
    }

    @Test func keys_AreTheirText_WhateverTheScalarLooksLike() {
        expectYAML("""
            responses:
              200: {description: OK}
              '404': {description: Missing}
              default: {description: Error}
            true: 1
            null: 2
            1.50: 3
            0x10: 4
            """, equalsJSON: #"""
            {"responses":{"200":{"description":"OK"},"404":{"description":"Missing"},"default":{"description":"Error"}},
             "true":1,"null":2,"1.50":3,"0x10":4}
            """#)
    }

    @Test func explicitKey_WithAScalar_IsAnOrdinaryKey() {
        expectYAML("? a\n: 1\n? b\n", equalsJSON: #"{"a":1,"b":null}"#)
    }

    @Test func key_ThatIsACollection_IsRefused() {
        expectYAMLError("? [a, b]\n: c\n", line: 1, column: 3, "a mapping key must be a scalar")
        expectYAMLError("? a: 1\n: c\n", line: 1, column: 3, "a mapping key must be a scalar")
        expectYAMLError("{[a]: b}", line: 1, column: 2, "a mapping key must be a scalar")
        expectYAMLError("list: &l [1]\n*l : x\n", line: 2, column: 1, "a mapping key must be a scalar")
    }

    @Test func emptyKey_IsRefused() {
        expectYAMLError(": v\n", line: 1, column: 1, "this mapping entry has no key")
        expectYAMLError("{: v}", line: 1, column: 2, "this mapping entry has no key")
        expectYAMLError("{!!null : v}", line: 1, column: 2, "this mapping entry has no key")
        expectYAMLError("a: &empty\n*empty : v\n", line: 2, column: 1, "this mapping entry has no key")
    }

    @Test func emptyKey_TaggedAsAString_IsTheEmptyString() {
        expectYAML("!!str : a\n", equalsJSON: #"{"":"a"}"#)
        // Found by the differential test: '!' makes the empty scalar a string too.
        expectYAML("{!  }", equalsJSON: #"{"":null}"#)
        expectYAML("! : b\n", equalsJSON: #"{"":"b"}"#)
    }

    @Test func duplicateKey_IsRefused_AtTheSecondKey() {
        expectYAMLError("a: 1\nb:\n  c: 1\n  c: 2\n", line: 4, column: 3, "the key 'c' appears twice")
        expectYAMLError("{x: 1, 'x': 2}", line: 1, column: 8, "the key 'x' appears twice")
        expectYAMLError("200: a\n\"200\": b\n", line: 2, column: 1, "the key '200' appears twice")
    }

    @Test func misplacedIndicators_AreRefused_WithTheirPosition() {
        expectYAMLError("a: - b\n", line: 1, column: 4, "a '- ' sequence entry is not allowed here")
        expectYAMLError("a: b: c\n", line: 1, column: 5, "': ' is not allowed here")
        expectYAMLError("[a, - b]\n", line: 1, column: 5, "a '- ' block sequence entry cannot appear inside a flow")
        expectYAMLError("[a, -]\n", line: 1, column: 5, "'-' cannot start a value here")
        expectYAMLError("a: [1]]\n", line: 1, column: 7, "']' closes nothing")
    }

    @Test func badIndentation_IsRefused_NamingTheCollection() {
        expectYAMLError("a:\n  b: 1\n c: 2\n", line: 3, column: 2,
                        "expected a key at the indentation of the mapping that starts at line 1, column 1")
        expectYAMLError("a: 1\nb\n", line: 2, column: 1, "expected ':' after this mapping key")
        expectYAMLError("- a\nb: c\n", line: 2, column: 1,
                        "expected a '- ' item at the indentation of the sequence that starts at line 1, column 1")
    }

    @Test func unclosedFlowCollection_IsRefused_NamingWhereItOpens() {
        expectYAMLError("a: [1, 2\n", line: 2, column: 1,
                        "expected ',' or ']' in the flow sequence that starts at line 1, column 4")
        expectYAMLError("a: {b: 1\nc: 2", line: 2, column: 2, "expected ',' or '}' in the flow mapping")
    }
}
