import ContractModel
import Testing

/// Plain, quoted and block scalars, and how plain ones resolve (YAML 1.2 core schema).
struct YAMLScalarTests {
    // MARK: - Core schema

    @Test(arguments: [
        ("null", "null"), ("Null", "null"), ("NULL", "null"), ("~", "null"), ("", "null"),
        ("true", "true"), ("True", "true"), ("TRUE", "true"), ("false", "false"), ("FALSE", "false"),
        ("0", "0"), ("-12", "-12"), ("+12", "12"), ("007", "7"), ("0o17", "15"), ("0x1F", "31"), ("0xff", "255"),
        ("1.5", "1.5"), ("-.5", "-0.5"), ("1.", "1"), ("1e3", "1000"), ("6.02E+23", "6.02e23"), ("+1.5e-3", "0.0015"),
    ])
    func plainScalar_ResolvesByTheCoreSchema(text: String, expected: String) {
        expectYAML("v: \(text)\n", equalsJSON: #"{"v":\#(expected)}"#)
    }

    @Test(arguments: [
        "yes", "no", "on", "off", "y", "n", "TrUe", "nULL", "1_000", "0777a", "0b101", "0o18", "0x", "1:30", "12e",
        ".", "1.2.3", "2001-12-14", "3.1.0", "+.5.", ".infinity", "-.nan", "NaN", "inf",
    ])
    func plainScalar_IsAString_WhenTheCoreSchemaDoesNotMatch(text: String) {
        expectYAML("v: \(text)\n", equalsJSON: #"{"v":"\#(text)"}"#)
    }

    @Test(arguments: [".inf", "-.Inf", "+.INF", ".nan", ".NaN"])
    func infinityAndNaN_AreRefused_BecauseJSONHasNoSuchNumbers(text: String) {
        expectYAMLError("v: \(text)\n", line: 1, column: 4, "which JSON cannot hold")
    }

    @Test func hugeNumber_IsRefused() {
        expectYAMLError("v: 1e999\n", line: 1, column: 4, "too large for JSON")
    }

    @Test func quotedAndBlockScalars_AreStrings_WhateverTheyHold() {
        expectYAML("a: '12'\nb: \"true\"\nc: |\n  null\nd: ! 12\n",
                   equalsJSON: #"{"a":"12","b":"true","c":"null\n","d":"12"}"#)
    }

    // MARK: - Plain scalars

    @Test func plainScalar_KeepsIndicatorsThatDoNotEndIt() {
        expectYAML("""
            url: http://example.com/a#b
            time: 12:30
            path: /pets/{id}
            dash: -x
            q: ?y
            text: a - b # a comment
            """, equalsJSON: #"""
            {"url":"http://example.com/a#b","time":"12:30","path":"/pets/{id}","dash":"-x","q":"?y","text":"a - b"}
            """#)
    }

    @Test func plainScalar_OverLines_FoldsBreaksIntoSpaces_AndEmptyLinesIntoNewlines() {
        expectYAML("description: This is\n  a long\n\n  text.\nnext: 1\n",
                   equalsJSON: #"{"description":"This is a long\ntext.","next":1}"#)
    }

    @Test func plainScalar_InAFlowCollection_EndsAtFlowIndicators() {
        expectYAML("[a b, c:d, e]", equalsJSON: #"["a b","c:d","e"]"#)
    }

    // MARK: - Quoted scalars

    @Test func singleQuoted_DoublesItsQuote_AndFoldsLines() {
        expectYAML("a: 'it''s # not a comment'\nb: 'one\n  two\n\n  three '\n",
                   equalsJSON: #"{"a":"it's # not a comment","b":"one two\nthree "}"#)
    }

    @Test func doubleQuoted_UnderstandsEveryYAMLEscape() throws {
        let text = #"""
            v: "\0\a\b\t\	\n\v\f\r\e\ \"\/\\\N\_\L\P\x41\u00e9\U0001F600\ud83d\ude00"
            """#
        let expected = "\u{0}\u{7}\u{8}\t\t\n\u{B}\u{C}\r\u{1B} \"/\\\u{85}\u{A0}\u{2028}\u{2029}Aé😀😀"
        #expect(try yaml(text) == .object(["v": .string(expected)]))
    }

    @Test func doubleQuoted_FoldsLines_AndAnEscapedBreakJoinsThem() {
        expectYAML(#"""
            v: "folded 
              to a space,
            
              to a line feed, or \
              \ non-content"
            """#, equalsJSON: #"{"v":"folded to a space,\nto a line feed, or  non-content"}"#)
    }

    @Test func doubleQuoted_BadEscape_IsRefused_AtTheBackslash() {
        expectYAMLError(#"a: "x\q""#, line: 1, column: 6, #"'\q' is not an escape sequence"#)
        expectYAMLError(#"a: "\x4""#, line: 1, column: 5, "needs 2 hexadecimal digits")
        expectYAMLError(#"a: "\U00110000""#, line: 1, column: 5, "not a Unicode character")
        expectYAMLError(#"a: "\'""#, line: 1, column: 5, #"'\'' is not an escape sequence"#)
    }

    @Test func unclosedQuote_IsRefused_AtTheOpeningQuote() {
        expectYAMLError("a: 'x\nb: 1\n", line: 1, column: 4, "single-quoted string is never closed")
        expectYAMLError("a: \"x\n", line: 1, column: 4, "double-quoted string is never closed")
        expectYAMLError("a: \"x\n---\n\"", line: 2, column: 1, "a document marker cannot be inside a quoted string")
    }

    // MARK: - Block scalars

    @Test func literal_KeepsLinesAndIndentationBeyondTheFirst() {
        expectYAML("""
            description: |
              # Pets
                - indented
              last
            next: 1
            """, equalsJSON: ##"{"description":"# Pets\n  - indented\nlast\n","next":1}"##)
    }

    @Test func folded_JoinsLines_ButKeepsMoreIndentedLinesAndEmptyLines() {
        expectYAML("v: >\n  one\n  two\n\n  three\n    code\n  four\n",
                   equalsJSON: #"{"v":"one two\nthree\n  code\nfour\n"}"#)
    }

    @Test(arguments: [
        ("|", #""a\n""#), ("|-", #""a""#), ("|+", #""a\n\n\n""#),
        (">", #""a\n""#), (">-", #""a""#), (">+", #""a\n\n\n""#),
    ])
    func chomping_StripsClipsOrKeepsTheFinalBreaks(header: String, expected: String) {
        expectYAML("v: \(header)\n  a\n\n\nw: 1\n", equalsJSON: #"{"v":\#(expected),"w":1}"#)
    }

    @Test func indentationIndicator_LetsTheFirstLineStartWithSpaces() {
        expectYAML("v: |2\n    indented\n  not\nw: >1-\n  x\n", equalsJSON: #"{"v":"  indented\nnot\n","w":" x"}"#)
        expectYAML("- |1\n  a\n- |+2\n   b\n", equalsJSON: #"[" a\n"," b\n"]"#)
    }

    @Test func blockScalar_EndsAtTheFirstLessIndentedLine_AndMayBeEmpty() {
        expectYAML("a: |\nb: >-\n\n\nc: |\n  x\n # comment\n", equalsJSON: #"{"a":"","b":"","c":"x\n"}"#)
    }

    @Test func blockScalar_BadHeaders_AreRefused() {
        expectYAMLError("v: |0\n  a\n", line: 1, column: 5, "indentation indicator is a digit from 1 to 9")
        expectYAMLError("v: |x\n  a\n", line: 1, column: 5, "starts on the line after its '|' header")
        expectYAMLError("v: >#c\n  a\n", line: 1, column: 5, "starts on the line after its '>' header")
    }

    @Test func blockScalar_LeadingEmptyLineDeeperThanTheText_IsRefused() {
        expectYAMLError("v: |\n      \n  a\n", line: 3, column: 3, "an empty line above has more spaces")
    }
}
