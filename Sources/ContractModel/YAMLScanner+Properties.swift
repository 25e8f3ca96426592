/// Node properties (anchors `&name` and tags `!tag`), aliases (`*name`) and directives (`%YAML 1.2`).
extension YAMLScanner {
    mutating func fetchAlias() throws(YAMLReadError) {
        try saveSimpleKey()                   // an alias may be a key
        allowSimpleKey = false
        let start = cursor.mark
        append(.alias(try anchorName(after: "*")), at: start)
    }

    mutating func fetchAnchor() throws(YAMLReadError) {
        try saveSimpleKey()                   // an anchor may start a key
        allowSimpleKey = false
        let start = cursor.mark
        append(.anchor(try anchorName(after: "&")), at: start)
        if cursor.peek() == UInt8(ascii: "[") || cursor.peek() == UInt8(ascii: "{") {
            throw failure("a space must follow the anchor before the collection it names")
        }
    }

    /// The name after `&` or `*`: any characters up to white space or a flow indicator (YAML 1.2
    /// `ns-anchor-char`), so `&a:` names `a:`.
    private mutating func anchorName(after indicator: Character) throws(YAMLReadError) -> String {
        cursor.advance()
        let nameStart = cursor.index
        while !cursor.peek().isBlankBreakOrEnd, !cursor.peek().isFlowIndicator { cursor.advance() }
        guard cursor.index > nameStart else { throw failure("a name must follow '\(indicator)'") }
        return cursor.text(nameStart..<cursor.index)
    }

    /// A tag: `!!name` (the YAML namespace, `tag:yaml.org,2002:name`), `!name` (a local tag), `!` (the
    /// non-specific tag: "not resolved by the schema") or `!<uri>` (verbatim). A named handle such as `!e!`
    /// would need a `%TAG` directive, which this reader does not support.
    mutating func fetchTag() throws(YAMLReadError) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = cursor.mark
        cursor.advance()
        let name: String
        if cursor.peek() == UInt8(ascii: "<") {
            cursor.advance()
            let uriStart = cursor.index
            while cursor.peek() != UInt8(ascii: ">"), !cursor.peek().isBlankBreakOrEnd { cursor.advance() }
            guard cursor.peek() == UInt8(ascii: ">"), cursor.index > uriStart else {
                throw YAMLReadError("a verbatim tag '!<...>' needs its closing '>'", at: start)
            }
            name = cursor.text(uriStart..<cursor.index)
            cursor.advance()
        } else {
            var handle = "!"
            var suffixStart = cursor.index
            while !cursor.peek().isBlankBreakOrEnd, !cursor.peek().isFlowIndicator {
                if cursor.peek() == UInt8(ascii: "!") {
                    guard handle == "!" else { throw failure("a tag holds at most two '!' after its first") }
                    handle = "!" + cursor.text(suffixStart..<cursor.index) + "!"
                    suffixStart = cursor.index + 1
                }
                cursor.advance()
            }
            let suffix = cursor.text(suffixStart..<cursor.index)
            switch handle {
            case "!": name = "!" + suffix
            case "!!": name = YAMLTag.yamlPrefix + suffix
            default:
                throw YAMLReadError("the tag handle '\(handle)' is not declared; %TAG directives are not supported",
                                    at: start)
            }
            if handle == "!!" && suffix.isEmpty { throw YAMLReadError("'!!' needs a tag name after it", at: start) }
        }
        let next = cursor.peek()
        let endsFlowEntry = next == UInt8(ascii: ",") || next == UInt8(ascii: "]") || next == UInt8(ascii: "}")
        guard next.isBlankBreakOrEnd || (flowLevel > 0 && endsFlowEntry) else {
            throw failure("a tag must be followed by a space")
        }
        append(.tag(name), at: start)
    }

    /// `%YAML 1.x` is checked; `%TAG` is refused; other directives are reserved, and their parameters skipped.
    mutating func fetchDirective() throws(YAMLReadError) {
        unwindIndent(to: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        let start = cursor.mark
        cursor.advance()
        let name = word()
        if name.isEmpty { throw failure("a directive needs a name after '%'") }
        switch name {
        case "YAML":
            while cursor.peek().isBlank { cursor.advance() }
            let versionMark = cursor.mark
            let version = word()
            let parts = version.split(separator: ".", omittingEmptySubsequences: false)
            let isNumber = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
            guard parts.count == 2, parts.allSatisfy(isNumber) else {
                throw YAMLReadError("'\(version)' is not a YAML version such as 1.2", at: versionMark)
            }
            guard parts[0] == "1" else {
                throw YAMLReadError("YAML \(version) is not supported; this reader reads YAML 1.x", at: versionMark)
            }
        case "TAG":
            throw YAMLReadError("%TAG directives are not supported", at: start)
        default:
            while !cursor.peek().isBreak, !cursor.isAtEnd { cursor.advance() }
        }
        append(.directive(name), at: start)
        while cursor.peek().isBlank { cursor.advance() }
        if cursor.peek() == UInt8(ascii: "#"), cursor.followsWhitespace {
            while !cursor.peek().isBreak, !cursor.isAtEnd { cursor.advance() }
        }
        guard cursor.peek().isBreak || cursor.isAtEnd else { throw failure("unexpected text after the directive") }
    }

    /// The characters up to the next white space.
    private mutating func word() -> String {
        let wordStart = cursor.index
        while !cursor.peek().isBlankBreakOrEnd { cursor.advance() }
        return cursor.text(wordStart..<cursor.index)
    }
}
