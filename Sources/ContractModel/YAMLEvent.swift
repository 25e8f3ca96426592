/// One step through a YAML document's structure, as the parser hands it to the composer: where a
/// collection opens and closes, each scalar and alias, with the node's anchor and tag.
struct YAMLEvent {
    enum Kind {
        case streamStart
        case streamEnd
        case documentStart
        case documentEnd
        case alias(String)
        /// A scalar; a node left empty (`key:` with no value) is an empty plain scalar.
        case scalar(String, YAMLScalarStyle)
        case sequenceStart
        case mappingStart
        case collectionEnd
    }

    let kind: Kind
    var anchor: String?
    var tag: String?
    let mark: YAMLMark

    init(_ kind: Kind, anchor: String? = nil, tag: String? = nil, at mark: YAMLMark) {
        self.kind = kind
        self.anchor = anchor
        self.tag = tag
        self.mark = mark
    }
}
