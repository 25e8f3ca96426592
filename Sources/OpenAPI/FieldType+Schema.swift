import ContractModel

/// A contract's field types as JSON Schema (OpenAPI 3.1), for parameters and request bodies.
extension FieldType {
    /// Where a field travels: its schema differs between text (query, header, path, form) and JSON.
    enum Carrier {
        /// A query, header or path parameter, or a form field: always text.
        case text
        /// A member of a JSON body: an optional one may also be `null`.
        case json
        /// A part of a multipart body.
        case multipart
    }

    /// The field's schema. An optional JSON member accepts `null` too, as the mock does.
    func schema(in carrier: Carrier) -> JSONValue {
        var schema: [String: JSONValue]
        switch kind {
        case .string: schema = ["type": .string("string")]
        // A contract's integer is 64-bit (an app's `Int`), and the mock refuses a larger one with a 400.
        case .integer: schema = ["type": .string("integer"), "format": .string("int64")]
        case .number: schema = ["type": .string("number")]
        case .boolean: schema = ["type": .string("boolean")]
        case .file:
            schema = ["type": .string("string")]
            if carrier == .multipart { schema["format"] = .string("binary") }
        case .json:
            switch carrier {
            case .json: return .object([:]) // any JSON value, null included
            case .multipart: schema = ["type": .string("object")]
            case .text: schema = ["type": .string("string"), "contentMediaType": .string("application/json")]
            }
        }
        if carrier == .json && isOptional, case .string(let type)? = schema["type"] {
            schema["type"] = .strings([type, "null"])
        }
        return .object(schema)
    }
}
