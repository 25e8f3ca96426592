/// The tags this reader honours. A tag names a node's type explicitly (`!!int "12"` is the number 12); YAML
/// documents in the wild, OpenAPI ones included, rarely use them. Any other tag (`!!binary`, `!!timestamp`,
/// `!!set`, a local `!thing`) is an error: dropping it silently could change what the document means.
enum YAMLTag {
    /// The YAML namespace, which the `!!` handle abbreviates.
    static let yamlPrefix = "tag:yaml.org,2002:"
    static let string = yamlPrefix + "str"
    static let integer = yamlPrefix + "int"
    static let float = yamlPrefix + "float"
    static let boolean = yamlPrefix + "bool"
    static let null = yamlPrefix + "null"
    static let mapping = yamlPrefix + "map"
    static let sequence = yamlPrefix + "seq"
    /// `!` alone: "not resolved by the schema", so `! 12` is the string "12".
    static let nonSpecific = "!"

    /// The tag as written in documents: `!!str` rather than `tag:yaml.org,2002:str`.
    static func shortName(_ tag: String) -> String {
        tag.hasPrefix(yamlPrefix) ? "!!" + tag.dropFirst(yamlPrefix.count) : tag
    }

    /// The error for a tag this reader does not honour.
    static func unsupported(_ tag: String, at mark: YAMLMark) -> YAMLReadError {
        YAMLReadError("the tag '\(shortName(tag))' is not supported; this reader understands !!str, !!int, !!float, "
                      + "!!bool, !!null, !!map, !!seq and '!'", at: mark)
    }
}
