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
        case .integer: Int(text) != nil
        case .number: Double(text).map { $0.isFinite } ?? false
        case .boolean: text == "true" || text == "false"
        case .json: (try? JSONValue.parse(Array(text.utf8))) != nil
        }
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
