/// Turns YAML text into tokens. It follows the design of libyaml's scanner (and PyYAML's, its port): block
/// structure becomes explicit tokens by tracking indentation, and implicit keys are found after the fact.
///
/// - Indentation: each block collection pushes its column on ``indents``; a line that starts to the left of
///   the current column closes collections with `blockEnd` tokens.
/// - Implicit ("simple") keys: `key: value` has no marker before the key, so the scanner remembers where each
///   token that could be a key starts. When a `:` follows on the same line, within 1024 characters (or, in a
///   flow mapping, anywhere before the entry ends), it inserts a `key` token there, and a `blockMappingStart`
///   if the key opens a mapping. Until that is settled, tokens wait in ``queue``.
///
/// It never recurses: deep nesting costs heap, not stack.
struct YAMLScanner {
    var cursor: YAMLCursor
    /// Tokens scanned but not yet taken; those before ``head`` have been taken.
    var queue: [YAMLToken] = []
    var head = 0
    var tokensTaken = 0
    var isDone = false
    /// How many `[` and `{` are open; 0 is the block context.
    var flowLevel = 0
    /// The column of the innermost block collection, -1 at the top.
    var indent = -1
    var indents: [Int] = []
    /// Whether a key, and in the block context a new collection, may start here.
    var allowSimpleKey = true
    /// The possible implicit key at each flow level (index 0 is the block context).
    var simpleKeys: [SimpleKey?] = [nil]
    /// Whether each flow level is a mapping, whose keys may span lines (index 0 is the block context).
    var isFlowMapping = [false]
    /// Whether the last token was a quoted scalar or a flow collection: after such a JSON-like key, `:` needs
    /// no space after it inside a flow collection (`{"a":1}`).
    var followsJSONLikeNode = false
    /// Whether a tab separated the last token from the next one on this line, in the block context: a tab
    /// cannot stand for indentation, so no block collection may start after it.
    var followsTab = false

    /// A token that may turn out to be an implicit key once a `:` follows it.
    struct SimpleKey {
        let tokenNumber: Int
        /// In the block context, a key at the mapping's own column must find its `:`: the line is an entry.
        let isRequired: Bool
        let followsTab: Bool
        let mark: YAMLMark
    }

    init(cursor: YAMLCursor) {
        self.cursor = cursor
        queue.append(YAMLToken(kind: .streamStart, mark: cursor.mark))
    }

    /// The next token, taken from the queue.
    mutating func next() throws(YAMLReadError) -> YAMLToken {
        let token = try peek()
        head += 1
        tokensTaken += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return token
    }

    /// The next token, left in the queue.
    mutating func peek() throws(YAMLReadError) -> YAMLToken {
        while try needsMoreTokens() { try fetchMoreTokens() }
        return queue[head]
    }

    func failure(_ reason: String) -> YAMLReadError { YAMLReadError(reason, at: cursor.mark) }

    mutating func append(_ kind: YAMLToken.Kind, at mark: YAMLMark) {
        queue.append(YAMLToken(kind: kind, mark: mark))
    }

    // MARK: - Deciding what comes next

    /// Whether the next token may still change: it is a possible key whose `:` has not been seen yet.
    private mutating func needsMoreTokens() throws(YAMLReadError) -> Bool {
        if isDone { return false }
        if head == queue.count { return true }
        try removeStaleSimpleKeys()
        return simpleKeys.contains { $0?.tokenNumber == tokensTaken }
    }

    private mutating func fetchMoreTokens() throws(YAMLReadError) {
        try skipToNextToken()
        try removeStaleSimpleKeys()
        unwindIndent(to: cursor.column)
        let byte = cursor.peek()
        let next = cursor.peek(1)
        let isValueIndicator = byte == UInt8(ascii: ":")
            && (next.isBlankBreakOrEnd || (flowLevel > 0 && (next.isFlowIndicator || followsJSONLikeNode)))
        followsJSONLikeNode = false
        if cursor.isAtEnd { return fetchStreamEnd() }
        switch byte {
        case UInt8(ascii: "%") where cursor.column == 0: try fetchDirective()
        case UInt8(ascii: "-") where cursor.isAtDocumentMarker: try fetchDocumentIndicator(.documentStart)
        case UInt8(ascii: ".") where cursor.isAtDocumentMarker: try fetchDocumentIndicator(.documentEnd)
        case UInt8(ascii: "["): try fetchFlowCollectionStart(.flowSequenceStart)
        case UInt8(ascii: "{"): try fetchFlowCollectionStart(.flowMappingStart)
        case UInt8(ascii: "]"): try fetchFlowCollectionEnd(.flowSequenceEnd)
        case UInt8(ascii: "}"): try fetchFlowCollectionEnd(.flowMappingEnd)
        case UInt8(ascii: ","): try fetchFlowEntry()
        case UInt8(ascii: "-") where next.isBlankBreakOrEnd: try fetchBlockEntry()
        case UInt8(ascii: "?") where next.isBlankBreakOrEnd || (flowLevel > 0 && next.isFlowIndicator): try fetchKey()
        case UInt8(ascii: ":") where isValueIndicator: try fetchValue()
        case UInt8(ascii: "*"): try fetchAlias()
        case UInt8(ascii: "&"): try fetchAnchor()
        case UInt8(ascii: "!"): try fetchTag()
        case UInt8(ascii: "|") where flowLevel == 0: try fetchBlockScalar(literal: true)
        case UInt8(ascii: ">") where flowLevel == 0: try fetchBlockScalar(literal: false)
        case UInt8(ascii: "'"), UInt8(ascii: "\""): try fetchQuotedScalar()
        case UInt8(ascii: "#"): throw failure("a comment needs a space before its '#'")
        case UInt8(ascii: "@"), UInt8(ascii: "`"):
            throw failure("'\(Character(UnicodeScalar(byte)))' is reserved and cannot start a plain scalar; quote it")
        default:
            guard canStartPlainScalar else {
                throw failure("'\(Character(UnicodeScalar(byte)))' cannot start a value here")
            }
            try fetchPlainScalar()
        }
    }

    /// YAML 1.2 `ns-plain-first`: not an indicator, or one of `-` `?` `:` followed by a character that may
    /// continue a plain scalar.
    private var canStartPlainScalar: Bool {
        let byte = cursor.peek()
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            let next = cursor.peek(1)
            return !next.isBlankBreakOrEnd && !(flowLevel > 0 && next.isFlowIndicator)
        case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
             UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
             UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
             UInt8(ascii: "`"):
            return false
        default:
            return !byte.isBlankBreakOrEnd
        }
    }

    /// Skips spaces, tabs, comments and line breaks. A line break in the block context allows a key again.
    /// Tabs may separate tokens, but YAML indents with spaces only: in the block context, a tab where the
    /// line's indentation should be is an error, and so is a block collection that only a tab sets apart.
    private mutating func skipToNextToken() throws(YAMLReadError) {
        var tabInIndentation: YAMLMark?
        followsTab = false
        while true {
            let isIndentation = cursor.isInIndentation        // once per run: a long run is not walked again
            while cursor.peek().isBlank {
                if cursor.peek() == 0x09 {
                    followsTab = flowLevel == 0
                    if tabInIndentation == nil, isIndentation { tabInIndentation = cursor.mark }
                }
                cursor.advance()
            }
            if cursor.peek() == UInt8(ascii: "#"), cursor.followsWhitespace {
                while !cursor.peek().isBreak, !cursor.isAtEnd { cursor.advance() }
            }
            guard cursor.skipBreak() else { break }
            if flowLevel == 0 { allowSimpleKey = true }
            tabInIndentation = nil
            followsTab = false
        }
        // Spaces deeper than the current block may be followed by tabs: `key:\n \tvalue`.
        if let tabInIndentation, flowLevel == 0, !cursor.isAtEnd, tabInIndentation.column <= indent {
            throw YAMLReadError("a tab indents this line; YAML indents with spaces only", at: tabInIndentation)
        }
    }

    /// The error for a block collection that a tab sets apart from its parent's indicator: `-\t- item`.
    func tabIndentsCollection(at mark: YAMLMark) -> YAMLReadError {
        YAMLReadError("a tab separates this block collection from the indicator before it; YAML indents with "
                      + "spaces only", at: mark)
    }

    // MARK: - Implicit keys

    /// Drops possible keys that can no longer be keys: implicit keys fit on one line, in 1024 characters. A
    /// flow mapping's keys are not implicit keys: they may span lines and be of any length (YAML 1.2), as
    /// JSON's may.
    private mutating func removeStaleSimpleKeys() throws(YAMLReadError) {
        for level in simpleKeys.indices {
            guard let key = simpleKeys[level], level == 0 || !isFlowMapping[level] else { continue }
            if key.mark.line != cursor.mark.line || cursor.column - key.mark.column > 1024 {
                if key.isRequired { throw YAMLReadError("expected ':' after this mapping key", at: key.mark) }
                simpleKeys[level] = nil
            }
        }
    }

    /// Remembers that the token about to be scanned may be an implicit key.
    mutating func saveSimpleKey() throws(YAMLReadError) {
        guard allowSimpleKey else { return }
        try removeSimpleKey()
        let required = flowLevel == 0 && indent == cursor.column
        simpleKeys[flowLevel] = SimpleKey(tokenNumber: tokensTaken + queue.count - head, isRequired: required,
                                          followsTab: followsTab, mark: cursor.mark)
    }

    /// Forgets the possible key at this flow level; one that had to be a key is an error.
    mutating func removeSimpleKey() throws(YAMLReadError) {
        if let key = simpleKeys[flowLevel], key.isRequired {
            throw YAMLReadError("expected ':' after this mapping key", at: key.mark)
        }
        simpleKeys[flowLevel] = nil
    }

    // MARK: - Indentation

    /// Closes every block collection indented deeper than `column`.
    mutating func unwindIndent(to column: Int) {
        guard flowLevel == 0 else { return }
        while indent > column {
            indent = indents.removeLast()
            append(.blockEnd, at: cursor.mark)
        }
    }

    /// Opens a block collection at `column` if that is deeper than the current one.
    private mutating func addIndent(_ column: Int) -> Bool {
        guard indent < column else { return false }
        indents.append(indent)
        indent = column
        return true
    }

    // MARK: - Indicators

    private mutating func fetchStreamEnd() {
        unwindIndent(to: -1)
        simpleKeys = simpleKeys.map { _ in nil }
        allowSimpleKey = false
        append(.streamEnd, at: cursor.mark)
        isDone = true
    }

    private mutating func fetchDocumentIndicator(_ kind: YAMLToken.Kind) throws(YAMLReadError) {
        unwindIndent(to: -1)
        try removeSimpleKey()
        allowSimpleKey = false
        append(kind, at: cursor.mark)
        cursor.advance(3)
    }

    private mutating func fetchFlowCollectionStart(_ kind: YAMLToken.Kind) throws(YAMLReadError) {
        // The composer refuses this depth too, but the scanner may be far ahead of it, looking for the ':' of
        // a key at each level: stopping here keeps its work per token bounded.
        guard flowLevel < YAMLComposer.maximumDepth else {
            throw failure("nested more than \(YAMLComposer.maximumDepth) levels")
        }
        try saveSimpleKey()
        flowLevel += 1
        simpleKeys.append(nil)
        isFlowMapping.append(kind == .flowMappingStart)
        allowSimpleKey = true
        append(kind, at: cursor.mark)
        cursor.advance()
    }

    private mutating func fetchFlowCollectionEnd(_ kind: YAMLToken.Kind) throws(YAMLReadError) {
        guard flowLevel > 0 else {
            throw failure("'\(kind == .flowSequenceEnd ? "]" : "}")' closes nothing: no flow collection is open here")
        }
        try removeSimpleKey()
        simpleKeys.removeLast()
        isFlowMapping.removeLast()
        flowLevel -= 1
        allowSimpleKey = false
        append(kind, at: cursor.mark)
        cursor.advance()
        followsJSONLikeNode = true
    }

    private mutating func fetchFlowEntry() throws(YAMLReadError) {
        guard flowLevel > 0 else { throw failure("',' outside a flow collection; quote a value that starts with it") }
        allowSimpleKey = true
        try removeSimpleKey()
        append(.flowEntry, at: cursor.mark)
        cursor.advance()
    }

    private mutating func fetchBlockEntry() throws(YAMLReadError) {
        guard flowLevel == 0 else {
            throw failure("a '- ' block sequence entry cannot appear inside a flow collection ('[...]' or '{...}')")
        }
        guard allowSimpleKey else {
            throw failure("a '- ' sequence entry is not allowed here; start it on a line of its own")
        }
        if addIndent(cursor.column) {
            if followsTab { throw tabIndentsCollection(at: cursor.mark) }
            append(.blockSequenceStart, at: cursor.mark)
        }
        allowSimpleKey = true
        try removeSimpleKey()
        append(.blockEntry, at: cursor.mark)
        cursor.advance()
    }

    /// An explicit key: `? key`.
    private mutating func fetchKey() throws(YAMLReadError) {
        if flowLevel == 0 {
            guard allowSimpleKey else { throw failure("a '? ' mapping key is not allowed here") }
            if addIndent(cursor.column) {
                if followsTab { throw tabIndentsCollection(at: cursor.mark) }
                append(.blockMappingStart, at: cursor.mark)
            }
        }
        allowSimpleKey = flowLevel == 0
        try removeSimpleKey()
        append(.key, at: cursor.mark)
        cursor.advance()
    }

    /// A `:`; if a possible key waits on this line, it becomes a key now.
    private mutating func fetchValue() throws(YAMLReadError) {
        if let key = simpleKeys[flowLevel] {
            simpleKeys[flowLevel] = nil
            let position = head + key.tokenNumber - tokensTaken
            queue.insert(YAMLToken(kind: .key, mark: key.mark), at: position)
            if flowLevel == 0, addIndent(key.mark.column) {
                if key.followsTab { throw tabIndentsCollection(at: key.mark) }
                queue.insert(YAMLToken(kind: .blockMappingStart, mark: key.mark), at: position)
            }
            allowSimpleKey = false
        } else {
            if flowLevel == 0 {
                // Without a key before it on its line, `:` is only the value of an explicit `? key`, and starts
                // its line.
                guard allowSimpleKey, cursor.isInIndentation else {
                    throw failure("': ' is not allowed here; a key must fit on one line, and a value that "
                                  + "contains ': ' must be quoted")
                }
                if addIndent(cursor.column) { append(.blockMappingStart, at: cursor.mark) }
            }
            allowSimpleKey = flowLevel == 0
            try removeSimpleKey()
        }
        append(.value, at: cursor.mark)
        cursor.advance()
    }
}
