/// Builds the ``JSONValue`` of a YAML document from the parser's events: resolves scalars, aliases and merge
/// keys, turns mapping keys into strings, and refuses what JSON cannot hold or what would be dangerous.
///
/// - One document per stream: a second one is an error naming its line.
/// - Mapping keys are scalars and become their text, so `200:` and `'200':` are both the key "200"; a key
///   that is a mapping or a sequence (`? [a, b]`), an empty key, and a key repeated in one mapping are
///   errors.
/// - `*alias` copies its anchor's value (cheaply: values are copy-on-write). Because one alias can stand for
///   a large node, and aliases to aliases multiply, the nodes that aliases add are capped at
///   ``maximumAliasedNodes``: a "billion laughs" document fails instead of growing without bound.
/// - `<<: *base` (or a list of them) merges mappings into this one; keys written in the mapping win, then
///   the earlier merged mapping.
/// - Collections may nest ``maximumDepth`` deep, aliases included. The open collections live in an array,
///   not on the stack.
struct YAMLComposer {
    static let maximumDepth = 512
    static let maximumAliasedNodes = 1_000_000

    /// A finished node: its value, its text when it is a scalar (what a mapping key is), and its size and
    /// height, which bound what an alias to it adds.
    private struct Node {
        var value: JSONValue
        var keyText: String?
        var size = 1
        var height = 0
    }

    private struct OpenCollection {
        let isMapping: Bool
        let anchor: String?
        let mark: YAMLMark
        var items: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        /// A mapping's key whose value comes next.
        var pendingKey: String?
        var pendingKeyIsMerge = false
        var hasMergeKey = false
        /// Mappings merged with `<<`, in the order written.
        var merged: [[String: JSONValue]] = []
        var size = 1
        var height = 1
    }

    private var parser: YAMLParser
    private var anchors: [String: Node] = [:]
    private var open: [OpenCollection] = []
    private var aliasedNodes = 0

    /// Reads the one document in `bytes`; an empty stream is `null`.
    static func compose(_ bytes: [UInt8]) throws(YAMLReadError) -> JSONValue {
        var composer = YAMLComposer(parser: YAMLParser(scanner: YAMLScanner(cursor: try YAMLCursor.validated(bytes))))
        return try composer.document()
    }

    private init(parser: YAMLParser) { self.parser = parser }

    private mutating func document() throws(YAMLReadError) -> JSONValue {
        _ = try parser.next()                                   // the stream's start
        guard case .documentStart = try parser.next().kind else { return .null }
        var root: JSONValue?
        while root == nil { root = try add(try parser.next()) }
        _ = try parser.next()                                   // the document's end
        let next = try parser.next()
        if case .documentStart = next.kind {
            throw YAMLReadError("a second YAML document starts here; a file holds one document", at: next.mark)
        }
        return root ?? .null
    }

    /// Takes one event; answers the document's value once its top-level node is complete.
    private mutating func add(_ event: YAMLEvent) throws(YAMLReadError) -> JSONValue? {
        switch event.kind {
        case .scalar(let text, let style):
            if let last = open.indices.last, open[last].isMapping, open[last].pendingKey == nil {
                return try addKey(text: text, style: style, event: event)
            }
            let value = try YAMLCoreSchema.value(of: text, style: style, tag: event.tag, at: event.mark)
            return try add(Node(value: value, keyText: text), anchor: event.anchor, at: event.mark)
        case .alias(let name):
            guard let node = anchors[name] else {
                if open.contains(where: { $0.anchor == name }) {
                    throw YAMLReadError("the alias '*\(name)' is inside the node it refers to; JSON cannot hold a "
                                        + "recursive structure", at: event.mark)
                }
                throw YAMLReadError("no anchor '&\(name)' comes before this alias", at: event.mark)
            }
            aliasedNodes += node.size
            guard aliasedNodes <= Self.maximumAliasedNodes else {
                throw YAMLReadError("aliases expand to more than \(Self.maximumAliasedNodes) nodes; is this a "
                                    + "'billion laughs' document?", at: event.mark)
            }
            guard open.count + node.height <= Self.maximumDepth else {
                throw YAMLReadError("this alias nests the document more than \(Self.maximumDepth) levels",
                                    at: event.mark)
            }
            if let last = open.indices.last, open[last].isMapping, open[last].pendingKey == nil {
                guard let text = node.keyText else { throw Self.collectionKey(at: event.mark) }
                if text.isEmpty && node.value == .null {
                    throw YAMLReadError("this mapping entry has no key", at: event.mark)
                }
                try setKey(text, isMerge: false, at: event.mark)
                return nil
            }
            return try add(node, anchor: nil, at: event.mark)
        case .sequenceStart, .mappingStart:
            let isMapping = if case .mappingStart = event.kind { true } else { false }
            if let last = open.last, last.isMapping, last.pendingKey == nil { throw Self.collectionKey(at: event.mark) }
            guard open.count < Self.maximumDepth else {
                throw YAMLReadError("nested more than \(Self.maximumDepth) levels", at: event.mark)
            }
            switch event.tag {
            case nil, YAMLTag.nonSpecific?: break
            case YAMLTag.mapping? where isMapping, YAMLTag.sequence? where !isMapping: break
            case YAMLTag.mapping?, YAMLTag.sequence?:
                throw YAMLReadError("'\(YAMLTag.shortName(event.tag ?? ""))' cannot tag a "
                                    + (isMapping ? "mapping" : "sequence"), at: event.mark)
            case let tag?: throw YAMLTag.unsupported(tag, at: event.mark)
            }
            open.append(OpenCollection(isMapping: isMapping, anchor: event.anchor, mark: event.mark))
            return nil
        case .collectionEnd:
            let collection = open.removeLast()
            var value = JSONValue.array(collection.items)
            if collection.isMapping {
                var members = collection.members
                for mapping in collection.merged {
                    members.merge(mapping) { written, _ in written }
                }
                value = .object(members)
            }
            let node = Node(value: value, size: collection.size, height: collection.height)
            return try add(node, anchor: collection.anchor, at: collection.mark)
        case .streamStart, .streamEnd, .documentStart, .documentEnd:
            throw YAMLReadError("unexpected end of the document", at: event.mark)
        }
    }

    /// Adds a finished node to the innermost collection, or answers it when it is the document's top level.
    private mutating func add(_ node: Node, anchor: String?, at mark: YAMLMark) throws(YAMLReadError) -> JSONValue? {
        if let anchor { anchors[anchor] = node }
        guard let last = open.indices.last else { return node.value }
        open[last].size += node.size
        open[last].height = max(open[last].height, node.height + 1)
        guard open[last].isMapping else {
            open[last].items.append(node.value)
            return nil
        }
        let key = open[last].pendingKey ?? ""
        open[last].pendingKey = nil
        if open[last].pendingKeyIsMerge {
            switch node.value {
            case .object(let mapping): open[last].merged.append(mapping)
            case .array(let items):
                for item in items {
                    guard case .object(let mapping) = item else { throw Self.badMerge(found: item, at: mark) }
                    open[last].merged.append(mapping)
                }
            default: throw Self.badMerge(found: node.value, at: mark)
            }
        } else {
            open[last].members[key] = node.value
        }
        return nil
    }

    /// A scalar in a key's place: its text is the key.
    private mutating func addKey(text: String, style: YAMLScalarStyle, event: YAMLEvent)
        throws(YAMLReadError) -> JSONValue? {
        if style == .plain && text.isEmpty && event.tag != YAMLTag.string && event.tag != YAMLTag.nonSpecific {
            throw YAMLReadError("this mapping entry has no key", at: event.mark)
        }
        if event.tag != nil || event.anchor != nil {
            // A tag is checked like a value's; an anchor may be used as a value later.
            let value = try YAMLCoreSchema.value(of: text, style: style, tag: event.tag, at: event.mark)
            if let anchor = event.anchor { anchors[anchor] = Node(value: value, keyText: text) }
        }
        try setKey(text, isMerge: style == .plain && text == "<<" && event.tag == nil, at: event.mark)
        return nil
    }

    private mutating func setKey(_ text: String, isMerge: Bool, at mark: YAMLMark) throws(YAMLReadError) {
        let last = open.count - 1
        if isMerge ? open[last].hasMergeKey : open[last].members[text] != nil {
            throw YAMLReadError("the key '\(text)' appears twice in this mapping", at: mark)
        }
        open[last].pendingKey = text
        open[last].pendingKeyIsMerge = isMerge
        if isMerge { open[last].hasMergeKey = true }
    }

    private static func collectionKey(at mark: YAMLMark) -> YAMLReadError {
        YAMLReadError("a mapping key must be a scalar; keys that are mappings or sequences are not supported",
                      at: mark)
    }

    private static func badMerge(found value: JSONValue, at mark: YAMLMark) -> YAMLReadError {
        let found = value.typeName == "integer" ? "number" : value.typeName
        return YAMLReadError("'<<' merges a mapping, or a list of mappings, into this mapping; found a \(found)",
                             at: mark)
    }
}
