/// Turns the scanner's tokens into events, checking the grammar of YAML's block and flow collections. It is
/// the state machine of libyaml's parser: ``state`` says what the next event may be, and ``states`` holds
/// where to return when the node being read is done, so nesting costs heap, not stack.
///
/// ```
/// document       ::= (DIRECTIVE* DOCUMENT-START)? block_node? DOCUMENT-END*
/// block_node     ::= ALIAS | properties? (block_collection | flow_collection | SCALAR)
/// block_sequence ::= BLOCK-SEQUENCE-START (BLOCK-ENTRY block_node?)* BLOCK-END
/// block_mapping  ::= BLOCK-MAPPING-START ((KEY block_node?)? (VALUE block_node?)?)* BLOCK-END
/// indentless     ::= (BLOCK-ENTRY block_node?)+        -- `key:` then `- item` at the key's column
/// flow_sequence  ::= '[' (flow_entry ',')* flow_entry? ']'   -- an entry `a: b` is a one-pair mapping
/// flow_mapping   ::= '{' (flow_entry ',')* flow_entry? '}'
/// flow_entry     ::= flow_node | KEY flow_node? (VALUE flow_node?)?
/// ```
struct YAMLParser {
    private enum State {
        case streamStart, implicitDocumentStart, documentStart, documentContent, documentEnd, end
        case blockNode, blockNodeOrIndentlessSequence, flowNode
        case blockSequenceFirstEntry, blockSequenceEntry, indentlessSequenceEntry
        case blockMappingFirstKey, blockMappingKey, blockMappingValue
        case flowSequenceFirstEntry, flowSequenceEntry
        case flowSequenceEntryMappingKey, flowSequenceEntryMappingValue, flowSequenceEntryMappingEnd
        case flowMappingFirstKey, flowMappingKey, flowMappingValue, flowMappingEmptyValue
    }

    private var scanner: YAMLScanner
    private var state = State.streamStart
    private var states: [State] = []
    /// Where each open collection starts, for messages.
    private var collectionMarks: [YAMLMark] = []

    init(scanner: YAMLScanner) { self.scanner = scanner }

    /// The next event.
    mutating func next() throws(YAMLReadError) -> YAMLEvent {
        switch state {
        case .streamStart:
            let token = try scanner.next()
            state = .implicitDocumentStart
            return YAMLEvent(.streamStart, at: token.mark)
        case .implicitDocumentStart:
            let token = try scanner.peek()
            switch token.kind {
            case .directive, .documentStart, .documentEnd, .streamEnd: return try documentStart()
            default:
                states.append(.documentEnd)
                state = .blockNode
                return YAMLEvent(.documentStart, at: token.mark)
            }
        case .documentStart: return try documentStart()
        case .documentContent:
            switch try scanner.peek().kind {
            case .directive, .documentStart, .documentEnd, .streamEnd:
                state = states.removeLast()
                return YAMLEvent(.scalar("", .plain), at: try scanner.peek().mark)
            default: return try node(block: true)
            }
        case .documentEnd: return try documentEnd()
        case .end: return YAMLEvent(.streamEnd, at: try scanner.peek().mark)
        case .blockNode: return try node(block: true)
        case .blockNodeOrIndentlessSequence: return try node(block: true, indentlessSequence: true)
        case .flowNode: return try node(block: false)
        case .blockSequenceFirstEntry: return try blockSequenceEntry(first: true)
        case .blockSequenceEntry: return try blockSequenceEntry(first: false)
        case .indentlessSequenceEntry: return try indentlessSequenceEntry()
        case .blockMappingFirstKey: return try blockMappingKey(first: true)
        case .blockMappingKey: return try blockMappingKey(first: false)
        case .blockMappingValue: return try blockMappingValue()
        case .flowSequenceFirstEntry: return try flowSequenceEntry(first: true)
        case .flowSequenceEntry: return try flowSequenceEntry(first: false)
        case .flowSequenceEntryMappingKey: return try flowSequenceEntryMappingKey()
        case .flowSequenceEntryMappingValue: return try flowSequenceEntryMappingValue()
        case .flowSequenceEntryMappingEnd:
            state = .flowSequenceEntry
            return YAMLEvent(.collectionEnd, at: try scanner.peek().mark)
        case .flowMappingFirstKey: return try flowMappingKey(first: true)
        case .flowMappingKey: return try flowMappingKey(first: false)
        case .flowMappingValue: return try flowMappingValue(empty: false)
        case .flowMappingEmptyValue: return try flowMappingValue(empty: true)
        }
    }

    // MARK: - Documents

    /// A document after `...`s and directives, or the end of the stream. A document without `---` may follow
    /// `...` (YAML 1.2); after a first document, the composer refuses it as it refuses any second document.
    private mutating func documentStart() throws(YAMLReadError) -> YAMLEvent {
        while case .documentEnd = try scanner.peek().kind { _ = try scanner.next() }
        var token = try scanner.peek()
        if case .streamEnd = token.kind {
            state = .end
            return YAMLEvent(.streamEnd, at: token.mark)
        }
        let start = token.mark
        var hasDirectives = false
        var hasVersion = false
        while case .directive(let name) = token.kind {
            if name == "YAML" {
                if hasVersion { throw YAMLReadError("a document has at most one %YAML directive", at: token.mark) }
                hasVersion = true
            }
            hasDirectives = true
            _ = try scanner.next()
            token = try scanner.peek()
        }
        states.append(.documentEnd)
        if case .documentStart = token.kind {
            _ = try scanner.next()
            state = .documentContent
        } else if hasDirectives {
            throw YAMLReadError("expected '---' after the directives, found \(token.description)", at: token.mark)
        } else {
            state = .blockNode
        }
        return YAMLEvent(.documentStart, at: start)
    }

    private mutating func documentEnd() throws(YAMLReadError) -> YAMLEvent {
        let token = try scanner.peek()
        switch token.kind {
        case .documentEnd: _ = try scanner.next()
        case .documentStart, .streamEnd, .directive: break
        default:
            throw YAMLReadError("\(token.description) cannot follow the document's top-level value; is it "
                                + "indented too little?", at: token.mark)
        }
        state = .documentStart
        return YAMLEvent(.documentEnd, at: token.mark)
    }

    // MARK: - Nodes

    /// A node: an alias, or properties (anchor, tag) and content; properties alone make an empty scalar.
    private mutating func node(block: Bool, indentlessSequence: Bool = false) throws(YAMLReadError) -> YAMLEvent {
        var token = try scanner.peek()
        if case .alias(let name) = token.kind {
            _ = try scanner.next()
            state = states.removeLast()
            return YAMLEvent(.alias(name), at: token.mark)
        }
        let start = token.mark
        var anchor: String?
        var tag: String?
        while true {
            if case .anchor(let name) = token.kind {
                guard anchor == nil else { throw YAMLReadError("a node has at most one anchor", at: token.mark) }
                anchor = name
            } else if case .tag(let name) = token.kind {
                guard tag == nil else { throw YAMLReadError("a node has at most one tag", at: token.mark) }
                tag = name
            } else {
                break
            }
            _ = try scanner.next()
            token = try scanner.peek()
        }
        switch token.kind {
        case .blockEntry where indentlessSequence:
            state = .indentlessSequenceEntry
            return YAMLEvent(.sequenceStart, anchor: anchor, tag: tag, at: start)
        case .scalar(let text, let style):
            _ = try scanner.next()
            state = states.removeLast()
            return YAMLEvent(.scalar(text, style), anchor: anchor, tag: tag, at: start)
        case .flowSequenceStart:
            state = .flowSequenceFirstEntry
            return YAMLEvent(.sequenceStart, anchor: anchor, tag: tag, at: start)
        case .flowMappingStart:
            state = .flowMappingFirstKey
            return YAMLEvent(.mappingStart, anchor: anchor, tag: tag, at: start)
        case .blockSequenceStart where block:
            state = .blockSequenceFirstEntry
            return YAMLEvent(.sequenceStart, anchor: anchor, tag: tag, at: start)
        case .blockMappingStart where block:
            state = .blockMappingFirstKey
            return YAMLEvent(.mappingStart, anchor: anchor, tag: tag, at: start)
        default:
            guard anchor == nil && tag == nil else {
                state = states.removeLast()
                return YAMLEvent(.scalar("", .plain), anchor: anchor, tag: tag, at: start)
            }
            throw YAMLReadError("expected a value, found \(token.description)", at: token.mark)
        }
    }

    /// The empty node where a key or value is left out.
    private func emptyScalar(at mark: YAMLMark) -> YAMLEvent { YAMLEvent(.scalar("", .plain), at: mark) }

    /// The event that closes the innermost collection, whose closing token is next.
    private mutating func collectionEnd() throws(YAMLReadError) -> YAMLEvent {
        let token = try scanner.next()
        state = states.removeLast()
        collectionMarks.removeLast()
        return YAMLEvent(.collectionEnd, at: token.mark)
    }

    /// An error inside the innermost collection: what it expected, as in "expected ',' or ']' of the flow
    /// sequence", naming where the collection starts.
    private func failure(_ expected: String, found token: YAMLToken) -> YAMLReadError {
        let start = collectionMarks.last.map { " at line \($0.line), column \($0.column + 1)" } ?? ""
        return YAMLReadError("expected \(expected)\(start), found \(token.description)", at: token.mark)
    }

    // MARK: - Block collections

    private mutating func blockSequenceEntry(first: Bool) throws(YAMLReadError) -> YAMLEvent {
        if first { collectionMarks.append(try scanner.next().mark) }
        let token = try scanner.peek()
        switch token.kind {
        case .blockEntry:
            _ = try scanner.next()
            switch try scanner.peek().kind {
            case .blockEntry, .blockEnd:
                state = .blockSequenceEntry
                return emptyScalar(at: token.mark)
            default:
                states.append(.blockSequenceEntry)
                return try node(block: true)
            }
        case .blockEnd: return try collectionEnd()
        default: throw failure("a '- ' item at the indentation of the sequence that starts", found: token)
        }
    }

    /// The items of a sequence written at its key's own column: `key:` then `- item`.
    private mutating func indentlessSequenceEntry() throws(YAMLReadError) -> YAMLEvent {
        let token = try scanner.peek()
        guard case .blockEntry = token.kind else {
            state = states.removeLast()
            return YAMLEvent(.collectionEnd, at: token.mark)
        }
        _ = try scanner.next()
        switch try scanner.peek().kind {
        case .blockEntry, .key, .value, .blockEnd:
            state = .indentlessSequenceEntry
            return emptyScalar(at: token.mark)
        default:
            states.append(.indentlessSequenceEntry)
            return try node(block: true)
        }
    }

    private mutating func blockMappingKey(first: Bool) throws(YAMLReadError) -> YAMLEvent {
        if first { collectionMarks.append(try scanner.next().mark) }
        let token = try scanner.peek()
        switch token.kind {
        case .key:
            _ = try scanner.next()
            switch try scanner.peek().kind {
            case .key, .value, .blockEnd:
                state = .blockMappingValue
                return emptyScalar(at: token.mark)
            default:
                states.append(.blockMappingValue)
                return try node(block: true, indentlessSequence: true)
            }
        case .value:
            // `: value` with no key: an empty key, which the composer refuses.
            state = .blockMappingValue
            return emptyScalar(at: token.mark)
        case .blockEnd: return try collectionEnd()
        default: throw failure("a key at the indentation of the mapping that starts", found: token)
        }
    }

    private mutating func blockMappingValue() throws(YAMLReadError) -> YAMLEvent {
        let token = try scanner.peek()
        guard case .value = token.kind else {
            state = .blockMappingKey
            return emptyScalar(at: token.mark)
        }
        _ = try scanner.next()
        switch try scanner.peek().kind {
        case .key, .value, .blockEnd:
            state = .blockMappingKey
            return emptyScalar(at: token.mark)
        default:
            states.append(.blockMappingKey)
            return try node(block: true, indentlessSequence: true)
        }
    }

    // MARK: - Flow collections

    private mutating func flowSequenceEntry(first: Bool) throws(YAMLReadError) -> YAMLEvent {
        if first { collectionMarks.append(try scanner.next().mark) }
        var token = try scanner.peek()
        if case .flowSequenceEnd = token.kind { return try collectionEnd() }
        if !first {
            guard case .flowEntry = token.kind else {
                throw failure("',' or ']' in the flow sequence that starts", found: token)
            }
            _ = try scanner.next()
            token = try scanner.peek()
        }
        switch token.kind {
        case .flowSequenceEnd: return try collectionEnd()
        case .key, .value:
            // `[a: b]`: a mapping of one pair (`[: b]` has an empty key, which the composer refuses).
            state = .flowSequenceEntryMappingKey
            return YAMLEvent(.mappingStart, at: token.mark)
        default:
            states.append(.flowSequenceEntry)
            return try node(block: false)
        }
    }

    private mutating func flowSequenceEntryMappingKey() throws(YAMLReadError) -> YAMLEvent {
        var token = try scanner.peek()
        if case .key = token.kind { token = try scanner.next() }
        switch try scanner.peek().kind {
        case .value, .flowEntry, .flowSequenceEnd:
            state = .flowSequenceEntryMappingValue
            return emptyScalar(at: token.mark)
        default:
            states.append(.flowSequenceEntryMappingValue)
            return try node(block: false)
        }
    }

    private mutating func flowSequenceEntryMappingValue() throws(YAMLReadError) -> YAMLEvent {
        let token = try scanner.peek()
        guard case .value = token.kind else {
            state = .flowSequenceEntryMappingEnd
            return emptyScalar(at: token.mark)
        }
        _ = try scanner.next()
        switch try scanner.peek().kind {
        case .flowEntry, .flowSequenceEnd:
            state = .flowSequenceEntryMappingEnd
            return emptyScalar(at: token.mark)
        default:
            states.append(.flowSequenceEntryMappingEnd)
            return try node(block: false)
        }
    }

    private mutating func flowMappingKey(first: Bool) throws(YAMLReadError) -> YAMLEvent {
        if first { collectionMarks.append(try scanner.next().mark) }
        var token = try scanner.peek()
        if case .flowMappingEnd = token.kind { return try collectionEnd() }
        if !first {
            guard case .flowEntry = token.kind else {
                throw failure("',' or '}' in the flow mapping that starts", found: token)
            }
            _ = try scanner.next()
            token = try scanner.peek()
        }
        switch token.kind {
        case .flowMappingEnd: return try collectionEnd()
        case .value:
            // `{: value}` with no key: an empty key, which the composer refuses.
            state = .flowMappingValue
            return emptyScalar(at: token.mark)
        case .key:
            _ = try scanner.next()
            switch try scanner.peek().kind {
            case .value, .flowEntry, .flowMappingEnd:
                state = .flowMappingValue
                return emptyScalar(at: token.mark)
            default:
                states.append(.flowMappingValue)
                return try node(block: false)
            }
        default:
            // `{a, b: c}`: a key with no ':' has an empty value.
            states.append(.flowMappingEmptyValue)
            return try node(block: false)
        }
    }

    private mutating func flowMappingValue(empty: Bool) throws(YAMLReadError) -> YAMLEvent {
        let token = try scanner.peek()
        state = .flowMappingKey
        guard !empty, case .value = token.kind else { return emptyScalar(at: token.mark) }
        _ = try scanner.next()
        switch try scanner.peek().kind {
        case .flowEntry, .flowMappingEnd: return emptyScalar(at: token.mark)
        default:
            states.append(.flowMappingKey)
            return try node(block: false)
        }
    }
}
