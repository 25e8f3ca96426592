import ContractModel

/// Read access to JSON values, for walking OpenAPI documents and contract JSON.
extension JSONValue {
    var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { items } else { nil }
    }

    var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    var boolValue: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    var numberValue: Double? {
        if case .number(let number) = self { number } else { nil }
    }

    /// The member `key` of an object; `nil` for anything else.
    subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}
