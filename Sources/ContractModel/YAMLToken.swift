/// One token of YAML syntax, as the scanner hands it to the parser, with where it starts.
struct YAMLToken {
    enum Kind: Equatable {
        case streamStart
        case streamEnd
        /// A directive by its name: `YAML` for `%YAML 1.2` (whose version the scanner checked), or a reserved one,
        /// which is ignored. The scanner refuses `%TAG`.
        case directive(String)
        case documentStart                  // ---
        case documentEnd                    // ...
        /// Where a block sequence or mapping opens: the scanner's indentation went deeper.
        case blockSequenceStart
        case blockMappingStart
        /// Where the indentation came back out of a block collection.
        case blockEnd
        case flowSequenceStart              // [
        case flowSequenceEnd                // ]
        case flowMappingStart               // {
        case flowMappingEnd                 // }
        case blockEntry                     // -
        case flowEntry                      // ,
        /// Before every mapping key: `?`, or inserted in front of an implicit key when its `:` is found.
        case key
        case value                          // :
        case alias(String)                  // *name
        case anchor(String)                 // &name
        /// A tag's full name: `tag:yaml.org,2002:str` for `!!str`, `!local` for `!local`, `!` for `!`.
        case tag(String)
        case scalar(String, YAMLScalarStyle)
    }

    let kind: Kind
    let mark: YAMLMark

    /// How the token reads in an error message.
    var description: String {
        switch kind {
        case .streamStart: "the start of the input"
        case .streamEnd: "the end of the input"
        case .directive(let name): "a %\(name) directive"
        case .documentStart: "'---'"
        case .documentEnd: "'...'"
        case .blockSequenceStart: "the start of a block sequence"
        case .blockMappingStart: "the start of a block mapping"
        case .blockEnd: "a line indented less than this block"
        case .flowSequenceStart: "'['"
        case .flowSequenceEnd: "']'"
        case .flowMappingStart: "'{'"
        case .flowMappingEnd: "'}'"
        case .blockEntry: "'-'"
        case .flowEntry: "','"
        case .key: "a mapping key"
        case .value: "':'"
        case .alias(let name): "the alias '*\(name)'"
        case .anchor(let name): "the anchor '&\(name)'"
        case .tag(let name): "the tag '\(YAMLTag.shortName(name))'"
        case .scalar(let text, _): "the scalar '\(Self.shortened(text))'"
        }
    }

    /// The start of a scalar's text for a message, on one line: control characters escaped as in JSON.
    private static func shortened(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONValue.escape(String(text.prefix(40)), into: &bytes)
        return String(decoding: bytes, as: UTF8.self) + (text.count > 40 ? "…" : "")
    }
}

/// How a scalar was written. Only plain scalars are resolved by the core schema (`12` is a number, `"12"` a
/// string).
enum YAMLScalarStyle: Equatable {
    case plain
    case singleQuoted
    case doubleQuoted
    case literal                            // |
    case folded                             // >
}
