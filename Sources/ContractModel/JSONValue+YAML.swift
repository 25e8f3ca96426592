/// Reading YAML into the same values as JSON, for OpenAPI documents written in YAML.
extension JSONValue {
    /// Parses `bytes` as one YAML 1.2 document into the value an equivalent JSON document would give.
    ///
    /// It reads what OpenAPI documents use: block and flow collections; plain, quoted, literal and folded
    /// scalars; comments; `---` and `...`; anchors, aliases and `<<` merge keys; the tags `!!str`, `!!int`,
    /// `!!float`, `!!bool`, `!!null`, `!!map`, `!!seq`. Plain scalars follow the core schema: `null`, `~` and
    /// nothing are null, `true`/`false` booleans, `12`, `0x1F`, `0o17` and `1.5e3` numbers, the rest strings.
    /// Mapping keys are strings: `200:` is the key "200".
    ///
    /// ```swift
    /// let spec = try JSONValue.parseYAML(Array("openapi: 3.1.0\ninfo: {title: Pets, version: '1'}\n".utf8))
    /// // .object(["openapi": .string("3.1.0"), "info": .object(["title": .string("Pets"), "version": .string("1")])])
    /// ```
    /// - Throws: ``YAMLReadError`` naming the line, column and reason: for text that is not YAML, and for
    ///   YAML that JSON cannot hold or that this reader refuses: a second document, a key that is not a
    ///   scalar or appears twice, `.inf` and `.nan`, other tags, `%TAG` directives, tabs in indentation,
    ///   aliases that expand too far, and nesting deeper than 512.
    package static func parseYAML(_ bytes: some Sequence<UInt8>) throws(YAMLReadError) -> JSONValue {
        try YAMLComposer.compose(Array(bytes))
    }
}
