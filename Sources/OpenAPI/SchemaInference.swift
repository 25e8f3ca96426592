import ContractModel

/// A JSON Schema that every one of some example values satisfies: the export documents a success
/// response's shape from the fixtures its scenarios serve.
///
/// Types are those seen (`integer` when every number is whole, `null` added when a value was null); an
/// object's properties are the union of the keys seen, required when every object has them; an array's
/// items are inferred from all items of all arrays. A value seen only as `null` gets the empty schema.
enum SchemaInference {
    /// Deeper than this, anything goes: the schema stays readable and the inference cheap.
    static let maximumDepth = 32

    static func schema(of values: [JSONValue]) -> JSONValue {
        schema(of: values, depth: 0)
    }

    private static func schema(of values: [JSONValue], depth: Int) -> JSONValue {
        guard !values.isEmpty, depth < maximumDepth else { return .object([:]) }
        var types: Set<String> = []
        var objects: [[String: JSONValue]] = []
        var items: [JSONValue] = []
        for value in values {
            switch value {
            case .null: types.insert("null")
            case .bool: types.insert("boolean")
            case .number(let number): types.insert(number.rounded() == number ? "integer" : "number")
            case .string: types.insert("string")
            case .array(let elements):
                types.insert("array")
                items += elements
            case .object(let members):
                types.insert("object")
                objects.append(members)
            }
        }
        if types.contains("number") { types.remove("integer") }
        guard types.contains(where: { $0 != "null" }) else { return .object([:]) }
        var result: [String: JSONValue] = [
            "type": types.count == 1 ? .string(types.first ?? "null") : .strings(types.sorted()),
        ]
        if !objects.isEmpty {
            let keys = Set(objects.flatMap(\.keys)).sorted()
            var properties: [String: JSONValue] = [:]
            for key in keys {
                properties[key] = schema(of: objects.compactMap { $0[key] }, depth: depth + 1)
            }
            result["properties"] = .object(properties)
            let required = keys.filter { key in objects.allSatisfy { $0[key] != nil } }
            if !required.isEmpty { result["required"] = .strings(required) }
        }
        if types.contains("array") && !items.isEmpty {
            result["items"] = schema(of: items, depth: depth + 1)
        }
        return .object(result)
    }
}
