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

    /// The integers a value of kind `integer` may hold: a 64-bit integer's, what an app decodes into `Int`.
    /// A larger one would reach it as `1e+20` (a template echoing it) or fail its decoding: it is refused.
    package static let integerRange = Int64.min...Int64.max

    /// Digits with an optional sign, within ``integerRange``; a path or query value gets no leading or trailing
    /// space.
    private static func isInteger(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isInteger)
    }

    private static func isInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if let sign = bytes.first, sign == UInt8(ascii: "+") || negative { index = 1 }
        guard index < bytes.count else { return false }
        // Accumulated as a negative number, whose range reaches one further: Int64.min has no positive twin.
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return false }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, underflowed) = shifted.subtractingReportingOverflow(Int64(digit))
            guard !overflowed, !underflowed else { return false }
            value = next
            index += 1
        }
        return negative || value != Int64.min
    }

    /// Whether a JSON body field has this type.
    package func accepts(json value: JSONValue) -> Bool {
        switch (kind, value) {
        case (_, .null): isOptional
        case (.string, .string), (.boolean, .bool), (.json, _): true
        case (.number, .number): true
        // Within the 64-bit range as a Double tells it: 2^63 and beyond are out.
        case (.integer, .number(let number)): number.rounded() == number && number >= -0x1p63 && number < 0x1p63
        default: false
        }
    }
}
