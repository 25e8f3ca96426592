/// The declared type of a query parameter, header, path parameter or body field in a contract:
/// `string`, `integer`, `number`, `boolean`, `json` (a multipart part holding JSON) or `file`
/// (a multipart part with a file name). A trailing `?` makes it optional: `"integer?"`.
package struct FieldType: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, CaseIterable {
        case string, integer, number, boolean, json, file
    }

    package let kind: Kind
    package let isOptional: Bool

    package init(kind: Kind, isOptional: Bool = false) {
        self.kind = kind
        self.isOptional = isOptional
    }

    /// Parses a declaration such as `integer` or `string?`; `nil` when the kind is unknown.
    package init?(declaration: String) {
        let optional = declaration.hasSuffix("?")
        guard let kind = Kind(rawValue: optional ? String(declaration.dropLast()) : declaration) else { return nil }
        self.init(kind: kind, isOptional: optional)
    }

    package var description: String { kind.rawValue + (isOptional ? "?" : "") }

    /// Whether a textual value (query, header, path, form field) has this type.
    package func accepts(text: String) -> Bool {
        switch kind {
        case .string, .file: true
        case .integer: Self.isInteger(text)
        case .number: Double(text).map { $0.isFinite } ?? false
        case .boolean: text == "true" || text == "false"
        case .json: (try? JSONValue.parse(Array(text.utf8))) != nil
        }
    }

    /// Whether a textual value given as UTF-8 bytes has this type: ``accepts(text:)`` without making a
    /// string for the kinds that need none (the request path checks every declared query parameter).
    package func accepts(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch kind {
        case .string, .file: true
        case .integer: Self.isInteger(bytes)
        case .boolean: bytes.elementsEqual("true".utf8) || bytes.elementsEqual("false".utf8)
        case .number, .json: accepts(text: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Digits with an optional sign, of any length: an integer too large for `Int` is still one (JSON Schema's
    /// `integer`, which OpenAPI tools send), and a path or query value gets no leading or trailing space.
    private static func isInteger(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isInteger)
    }

    private static func isInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index = 1 }
        guard index < bytes.count else { return false }
        while index < bytes.count {
            guard bytes[index] &- UInt8(ascii: "0") < 10 else { return false }
            index += 1
        }
        return true
    }

    /// Whether a JSON body field has this type.
    package func accepts(json value: JSONValue) -> Bool {
        switch (kind, value) {
        case (_, .null): isOptional
        case (.string, .string), (.boolean, .bool), (.json, _): true
        case (.number, .number): true
        case (.integer, .number(let number)): number.rounded() == number
        default: false
        }
    }
}
