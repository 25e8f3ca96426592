/// Any JSON document, decoded without a schema: contracts, fixtures and request bodies are read
/// into it so they can be checked field by field with precise error paths.
package enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses `bytes` as one strict JSON document (RFC 8259).
    /// - Throws: ``JSONReadError`` naming the line, column and reason.
    package static func parse(_ bytes: some Sequence<UInt8>) throws(JSONReadError) -> JSONValue {
        try JSONReader.read(Array(bytes))
    }

    /// A short name of the value's JSON type, for messages: `object`, `string`, ...
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue {
    /// A JSON number holding `value`.
    package static func integer(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// A JSON array of strings.
    package static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
}
