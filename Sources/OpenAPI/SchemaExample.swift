import ContractModel

/// A deterministic example value made from a JSON Schema, for responses that document no example.
///
/// An example given in the schema wins (`const`, `example`, the first of `examples`, `default`, the first
/// of `enum`); otherwise the value follows the schema: each property of an object, one item of an array
/// (or `minItems`), strings by `format` (`date-time`, `uuid`, `email`, …) within `minLength`/`maxLength`,
/// numbers within `minimum`/`maximum` and a multiple of `multipleOf`. `$ref`s are followed, `allOf`
/// branches merged, `oneOf`/`anyOf` take their first branch (with its discriminator value), and a schema
/// met again inside itself is cut: the property left out, or `null`, `[]` where one is required.
struct SchemaExample {
    let document: OpenAPIDocument
    /// Deeper than this, values are cut as cycles are.
    static let maximumDepth = 12

    func value(for schema: JSONValue, at pointer: String) throws(OpenAPIImportError) -> JSONValue {
        try generate(schema, at: pointer, depth: 0, expanding: []) ?? .null
    }

    /// `nil` when the value is cut: a cycle, or too deep.
    private func generate(_ schema: JSONValue, at pointer: String, depth: Int, expanding: [String])
        throws(OpenAPIImportError) -> JSONValue?
    {
        if case .bool = schema { return .object([:]) }
        guard case .object(let fields) = schema else { return .object([:]) }
        if case .string(let reference)? = fields["$ref"] {
            let target = Pointer.target(of: reference) ?? reference
            guard !expanding.contains(target) else { return nil }
            let (resolved, location) = try document.resolve(schema, at: pointer)
            return try generate(resolved, at: location, depth: depth + 1, expanding: expanding + [target])
        }
        guard depth < Self.maximumDepth else { return nil }
        if let value = fields["const"] ?? fields["example"] ?? fields["examples"]?.arrayValue?.first ?? fields["default"] {
            return value
        }
        if let values = fields["enum"]?.arrayValue, let first = values.first(where: { $0 != .null }) ?? values.first {
            return first
        }
        if let branches = fields["allOf"]?.arrayValue {
            var merged: JSONValue?
            var own = fields
            own["allOf"] = nil
            if own["properties"] != nil || own["type"] != nil {
                merged = try generate(.object(own), at: pointer, depth: depth, expanding: expanding)
            }
            for (index, branch) in branches.enumerated() {
                let value = try generate(branch, at: Pointer.appending(pointer, "allOf/\(index)"), depth: depth + 1,
                                         expanding: expanding)
                merged = Self.merge(merged, value)
            }
            return merged
        }
        for keyword in ["oneOf", "anyOf"] {
            guard let branches = fields[keyword]?.arrayValue, !branches.isEmpty else { continue }
            let index = branches.firstIndex { $0["type"]?.stringValue != "null" } ?? 0
            var value = try generate(branches[index], at: Pointer.appending(pointer, "\(keyword)/\(index)"),
                                     depth: depth + 1, expanding: expanding)
            if let property = fields["discriminator"]?["propertyName"]?.stringValue,
               case .object(var members)? = value, let name = discriminatorValue(fields, branch: branches[index]) {
                members[property] = .string(name)
                value = .object(members)
            }
            return value
        }
        switch Self.type(of: fields) {
        case "null": return .null
        case "object": return try object(fields, at: pointer, depth: depth, expanding: expanding)
        case "array":
            let itemSchema = fields["prefixItems"]?.arrayValue?.first ?? fields["items"] ?? .object([:])
            guard let item = try generate(itemSchema, at: Pointer.appending(pointer, "items"), depth: depth + 1,
                                          expanding: expanding) else { return .array([]) }
            let minimum = fields["minItems"]?.numberValue.map { Int($0) } ?? 1
            let maximum = fields["maxItems"]?.numberValue.map { Int($0) } ?? Int.max
            return .array(Array(repeating: item, count: max(0, min(max(minimum, 1), maximum, 3))))
        case "string": return .string(Self.string(fields))
        case "integer": return .number(Self.number(fields, integer: true))
        case "number": return .number(Self.number(fields, integer: false))
        case "boolean": return .bool(true)
        default: return .object([:])
        }
    }

    private func object(_ fields: [String: JSONValue], at pointer: String, depth: Int, expanding: [String])
        throws(OpenAPIImportError) -> JSONValue?
    {
        let required = Set(fields["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        var members: [String: JSONValue] = [:]
        let properties = fields["properties"]?.objectValue ?? [:]
        for (name, schema) in properties.sorted(by: { $0.key < $1.key }) {
            if schema["writeOnly"]?.boolValue == true && !required.contains(name) { continue }
            let value = try generate(schema, at: Pointer.appending(Pointer.appending(pointer, "properties"), name),
                                     depth: depth + 1, expanding: expanding)
            if let value { members[name] = value } else if required.contains(name) { members[name] = .null }
        }
        if properties.isEmpty, let additional = fields["additionalProperties"], additional.objectValue != nil,
           let value = try generate(additional, at: Pointer.appending(pointer, "additionalProperties"),
                                    depth: depth + 1, expanding: expanding) {
            members["key"] = value
        }
        return .object(members)
    }

    /// The discriminator value of the chosen branch: its key in `mapping`, else its schema's name.
    private func discriminatorValue(_ fields: [String: JSONValue], branch: JSONValue) -> String? {
        guard let reference = branch["$ref"]?.stringValue else { return nil }
        if let mapping = fields["discriminator"]?["mapping"]?.objectValue,
           let key = mapping.sorted(by: { $0.key < $1.key }).first(where: { $0.value.stringValue == reference })?.key {
            return key
        }
        return reference.split(separator: "/").last.map(String.init)
    }

    /// The schema's type: the first non-null one of a list (3.1), else what its keywords imply.
    static func type(of fields: [String: JSONValue]) -> String? {
        if let type = fields["type"]?.stringValue { return type }
        if let types = fields["type"]?.arrayValue?.compactMap(\.stringValue) {
            return types.first { $0 != "null" } ?? types.first
        }
        if fields["properties"] != nil || fields["additionalProperties"] != nil { return "object" }
        if fields["items"] != nil || fields["prefixItems"] != nil { return "array" }
        return nil
    }

    /// Objects merged member by member (later branches win); anything else: the first value.
    private static func merge(_ first: JSONValue?, _ second: JSONValue?) -> JSONValue? {
        guard case .object(var members)? = first, case .object(let more)? = second else { return first ?? second }
        members.merge(more) { _, new in new }
        return .object(members)
    }

    private static let formats: [String: String] = [
        "date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "time": "00:00:00Z", "duration": "P1D",
        "uuid": "00000000-0000-4000-8000-000000000000", "email": "user@example.com", "idn-email": "user@example.com",
        "uri": "https://example.com/", "url": "https://example.com/", "iri": "https://example.com/",
        "uri-reference": "/", "iri-reference": "/", "uri-template": "https://example.com/{id}",
        "hostname": "example.com", "idn-hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
        "byte": "ZXhhbXBsZQ==", "binary": "", "password": "secret", "regex": ".*", "json-pointer": "/",
        "relative-json-pointer": "0",
    ]

    private static func string(_ fields: [String: JSONValue]) -> String {
        var text = fields["format"]?.stringValue.flatMap { formats[$0] } ?? "string"
        if let minimum = fields["minLength"]?.numberValue, text.count < Int(minimum) {
            text += String(repeating: "x", count: Int(minimum) - text.count)
        }
        if let maximum = fields["maxLength"]?.numberValue, text.count > Int(max(0, maximum)) {
            text = String(text.prefix(Int(max(0, maximum))))
        }
        return text
    }

    /// 0 or 1 within the bounds (3.0's boolean `exclusiveMinimum` and 3.1's numeric one), rounded up to
    /// `multipleOf`.
    private static func number(_ fields: [String: JSONValue], integer: Bool) -> Double {
        let step = integer ? 1.0 : 0.5
        var low = -Double.greatestFiniteMagnitude
        var high = Double.greatestFiniteMagnitude
        if let minimum = fields["minimum"]?.numberValue {
            low = fields["exclusiveMinimum"]?.boolValue == true ? minimum + step : minimum
        }
        if let exclusive = fields["exclusiveMinimum"]?.numberValue { low = max(low, exclusive + step) }
        if let maximum = fields["maximum"]?.numberValue {
            high = fields["exclusiveMaximum"]?.boolValue == true ? maximum - step : maximum
        }
        if let exclusive = fields["exclusiveMaximum"]?.numberValue { high = min(high, exclusive - step) }
        var value = min(max(integer ? 1 : 1.5, low), high)
        if integer { value = value.rounded(.up) }
        if let multiple = fields["multipleOf"]?.numberValue, multiple > 0 {
            value = (value / multiple).rounded(.up) * multiple
        }
        return value
    }
}
