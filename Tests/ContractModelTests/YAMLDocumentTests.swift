import ContractModel
import Testing

/// What surrounds the value: comments, document markers, directives, a byte order mark, tags, and the
/// checks on the bytes themselves.
struct YAMLDocumentTests {
    @Test func comments_AreIgnored_WhereverTheyStand() {
        expectYAML("""
            # leading
            a: 1 # after a value
              # indented
            b: # before a nested value
              - x # in a sequence
            # trailing
            """, equalsJSON: #"{"a":1,"b":["x"]}"#)
    }

    @Test func comment_NeedsASpaceBeforeIt() {
        expectYAML("a: b#c\n", equalsJSON: #"{"a":"b#c"}"#)
        expectYAMLError("a: 'b'#c\n", line: 1, column: 7, "a comment needs a space before its '#'")
    }

    @Test func documentMarkers_AroundOneDocument_AreAccepted() {
        expectYAML("---\na: 1\n...\n", equalsJSON: #"{"a":1}"#)
        expectYAML("--- # comment\n- 1\n...\n# after the end\n", equalsJSON: "[1]")
        expectYAML("--- text\n", equalsJSON: #""text""#)
    }

    @Test func secondDocument_IsRefused_NamingItsLine() {
        expectYAMLError("a: 1\n---\nb: 2\n", line: 2, column: 1, "a second YAML document starts here")
        expectYAMLError("---\na: 1\n...\n---\n", line: 4, column: 1, "a second YAML document starts here")
        expectYAMLError("a: 1\n...\nb: 2\n", line: 3, column: 1, "a second YAML document starts here")
    }

    @Test func emptyStream_IsNull() {
        expectYAML("", equalsJSON: "null")
        expectYAML("# only a comment\n", equalsJSON: "null")
        expectYAML("---\n", equalsJSON: "null")
    }

    @Test func yamlDirective_IsAccepted_ForVersionOne() {
        expectYAML("%YAML 1.2\n---\na: 1\n", equalsJSON: #"{"a":1}"#)
        expectYAML("%YAML 1.1\n---\na: 1\n", equalsJSON: #"{"a":1}"#)
        expectYAMLError("%YAML 2.0\n---\na\n", line: 1, column: 7, "YAML 2.0 is not supported")
        expectYAMLError("%YAML 1.2\na: 1\n", line: 2, column: 1, "expected '---' after the directives")
    }

    @Test func reservedDirective_IsSkipped_ButStillNeedsADocumentStart() {
        expectYAML("%FOO bar baz\n---\na: 1\n", equalsJSON: #"{"a":1}"#)
        // Found by the differential test: the directive was skipped and the line after it ignored.
        expectYAMLError("%- { url: x }\n", line: 2, column: 1, "expected '---' after the directives")
        expectYAMLError("%FOO\na: 1\n", line: 2, column: 1, "expected '---' after the directives")
        // Found by the differential test: a '%' with no name was taken for a directive.
        expectYAMLError("%  YAML 1.2\n---\n", line: 1, column: 2, "a directive needs a name after '%'")
    }

    @Test func tagDirective_IsRefused() {
        expectYAMLError("%TAG ! tag:example.com,2000:\n---\na\n", line: 1, column: 1,
                        "%TAG directives are not supported")
    }

    @Test func byteOrderMark_AtTheStart_IsSkipped() throws {
        #expect(try JSONValue.parseYAML([0xEF, 0xBB, 0xBF] + Array("a: 1\n".utf8)) == json(#"{"a":1}"#))
    }

    @Test func lineBreaks_MayBeCRLFOrCR() {
        expectYAML("a: 1\r\nb: |\r\n  x\r\n  y\r\nc: 2\rd: 3\r", equalsJSON: #"{"a":1,"b":"x\ny\n","c":2,"d":3}"#)
    }

    @Test func invalidUTF8_IsRefused_AtItsPosition() {
        expectYAMLError(Array("a: 1\nb: caf".utf8) + [0xC3, 0x28], line: 2, column: 7, "invalid UTF-8")
    }

    @Test func controlCharacter_IsRefused_AtItsPosition() {
        expectYAMLError("a: é\u{7}\n", line: 1, column: 5, "the control character U+0007 is not allowed")
    }

    @Test func errorColumns_CountCharacters_NotBytes() {
        expectYAMLError("ключ: значение: x\n", line: 1, column: 15, "': ' is not allowed here")
    }

    // MARK: - Tags

    @Test func coreTags_ChangeHowAScalarResolves() {
        expectYAML("""
            a: !!str 12
            b: !!int "12"
            c: !!float 1
            d: !!bool 'true'
            e: !!null ''
            f: !!str
            g: !!map {x: 1}
            h: !!seq [1]
            i: !<tag:yaml.org,2002:int> 0x10
            j: ! true
            """, equalsJSON: #"{"a":"12","b":12,"c":1,"d":true,"e":null,"f":"","g":{"x":1},"h":[1],"i":16,"j":"true"}"#)
    }

    @Test func coreTag_OnTextThatDoesNotFit_IsRefused() {
        expectYAMLError("a: !!int twelve\n", line: 1, column: 4, "'twelve' is not an !!int value")
        expectYAMLError("a: !!bool yes\n", line: 1, column: 4, "'yes' is not a !!bool value")
        expectYAMLError("a: !!map [1]\n", line: 1, column: 4, "'!!map' cannot tag a sequence")
    }

    @Test(arguments: ["!!binary aGk=", "!!timestamp 2001-12-14", "!!set {a}", "!local x", "!<tag:example.com:x> y"])
    func otherTags_AreRefused(value: String) {
        expectYAMLError("a: \(value)\n", line: 1, column: 4, "is not supported")
    }

    @Test func properties_NeedASpaceBeforeACollection() {
        expectYAML("[&a , !!str , &b]", equalsJSON: #"[null,"",null]"#)
        // Found by the differential test: `&a[` was read as an anchored sequence.
        expectYAMLError("&flows[a]\n", line: 1, column: 7, "a space must follow the anchor")
        expectYAMLError("a: !!seq[a]\n", line: 1, column: 9, "a tag must be followed by a space")
        expectYAMLError("[!!map{}]\n", line: 1, column: 7, "a tag must be followed by a space")
    }

    @Test func namedTagHandle_IsRefused() {
        expectYAMLError("a: !e!thing x\n", line: 1, column: 4, "the tag handle '!e!' is not declared")
    }

    // MARK: - Tabs

    @Test func tabs_MaySeparateTokens_AndSitInsideScalars() {
        expectYAML("a:\t1\nb: [x,\ty]\nc: \"\tq\"\nd: |\n  \tcode\n",
                   equalsJSON: #"{"a":1,"b":["x","y"],"c":"\tq","d":"\tcode\n"}"#)
    }

    @Test func tab_AsIndentation_IsRefused() {
        expectYAMLError("a:\n\tb: 1\n", line: 2, column: 1, "a tab indents this line")
        expectYAMLError("a:\n  b: 1\n  \tc: 2\n", line: 3, column: 3, "a tab indents this line")
        expectYAMLError("-\t- x\n", line: 1, column: 3, "a tab separates this block collection")
    }
}
