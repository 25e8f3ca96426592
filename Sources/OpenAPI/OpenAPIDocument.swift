import ContractModel

/// An OpenAPI 3.0 or 3.1 document, read from JSON or YAML, with its `$ref`s checked: every one points
/// into the document (another document's is an error naming it) and to something that exists.
struct OpenAPIDocument {
    /// The file's name as given, for messages.
    let file: String
    let root: JSONValue
    /// `3.0` or `3.1`.
    let version: String

    /// Parses `bytes` (YAML for `.yaml`/`.yml` files and for text that does not start with `{`), and checks
    /// that it is an OpenAPI 3.0 or 3.1 document.
    init(file: String, bytes: [UInt8]) throws(OpenAPIImportError) {
        self.file = file
        let root = try Self.parse(file: file, bytes: bytes)
        guard case .object(let fields) = root else {
            throw OpenAPIImportError(lines: ["\(file): not an OpenAPI document: the top level is \(root.typeName), "
                + "not an object with \"openapi\": \"3.x\""])
        }
        if let swagger = fields["swagger"] {
            let version = swagger.stringValue ?? "2.0"
            throw .at(file, "/swagger", "OpenAPI \(version) (Swagger) is not supported; convert it to OpenAPI 3 "
                + "first (for example with swagger2openapi), then import that")
        }
        guard let text = fields["openapi"]?.stringValue else {
            throw OpenAPIImportError(lines: ["\(file): not an OpenAPI document: it has no \"openapi\" version field"])
        }
        guard text.hasPrefix("3.0") || text.hasPrefix("3.1") else {
            throw .at(file, "/openapi", "OpenAPI \(text) is not supported; import reads 3.0 and 3.1 documents")
        }
        version = String(text.prefix(3))
        self.root = root
        try checkReferences()
    }

    /// JSON, or YAML through the contract model's reader.
    private static func parse(file: String, bytes: [UInt8]) throws(OpenAPIImportError) -> JSONValue {
        let lower = file.lowercased()
        let firstByte = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        let isYAML = lower.hasSuffix(".yaml") || lower.hasSuffix(".yml")
            || (!lower.hasSuffix(".json") && firstByte != UInt8(ascii: "{"))
        if isYAML { return try YAMLInput.parse(file: file, bytes: bytes) }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw OpenAPIImportError(lines: ["\(file):\(error.line):\(error.column): not valid JSON: \(error.reason)"])
        }
    }

    /// The value at `pointer`, if any.
    func value(at pointer: String) -> JSONValue? {
        root.value(at: pointer)
    }

    /// `value` with its `$ref` chain followed, and the pointer where the value found is.
    func resolve(_ value: JSONValue, at pointer: String) throws(OpenAPIImportError)
        -> (value: JSONValue, pointer: String)
    {
        var current = value
        var location = pointer
        var seen: [String] = []
        while let reference = current["$ref"]?.stringValue {
            guard let target = Pointer.target(of: reference) else {
                throw .at(file, Pointer.appending(location, "$ref"),
                          "\"\(reference)\" points into another document; import reads one self-contained document "
                            + "(bundle it first, for example with redocly bundle)")
            }
            guard !seen.contains(target) else {
                throw .at(file, Pointer.appending(location, "$ref"), "\"\(reference)\" refers back to itself")
            }
            seen.append(target)
            guard let found = root.value(at: target) else {
                throw .at(file, Pointer.appending(location, "$ref"), "\"\(reference)\" points to nothing in the document")
            }
            current = found
            location = target
        }
        return (current, location)
    }

    /// Checks every `$ref` up front, so that a dangling or external one is named even where the import would
    /// not look. Literal data (examples, defaults, enums, extensions) is not searched.
    private func checkReferences() throws(OpenAPIImportError) {
        var pending: [(value: JSONValue, pointer: String, parentKey: String)] = [(root, "", "")]
        var problems: [String] = []
        while let (value, pointer, parentKey) = pending.popLast() {
            switch value {
            case .object(let members):
                if case .string(let reference)? = members["$ref"] {
                    let at = Pointer.appending(pointer, "$ref")
                    if let target = Pointer.target(of: reference) {
                        if root.value(at: target) == nil {
                            problems.append("\(file): #\(at): \"\(reference)\" points to nothing in the document")
                        }
                    } else {
                        problems.append("\(file): #\(at): \"\(reference)\" points into another document; import reads "
                            + "one self-contained document (bundle it first, for example with redocly bundle)")
                    }
                }
                for (key, member) in members {
                    let literal = key.hasPrefix("x-") || ["example", "default", "const", "enum"].contains(key)
                        || (key == "value" && parentKey != "properties")
                        || (key == "examples" && member.arrayValue != nil)
                    if parentKey == "properties" || !literal {
                        pending.append((member, Pointer.appending(pointer, key), key))
                    }
                }
            case .array(let items):
                for (index, item) in items.enumerated() {
                    pending.append((item, Pointer.appending(pointer, String(index)), parentKey))
                }
            default:
                break
            }
        }
        if !problems.isEmpty { throw OpenAPIImportError(lines: problems.sorted()) }
    }
}
