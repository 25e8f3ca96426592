extension ContractParser {
    // MARK: - Typed readers

    mutating func report(_ path: String, _ reason: String) {
        problems.append(ContractProblem(file: file, path: path, reason: reason))
    }

    mutating func object(_ value: JSONValue, at path: String, keys: Set<String>) -> [String: JSONValue]? {
        guard case .object(let fields) = value else {
            report(path, "expected an object, found \(value.typeName)")
            return nil
        }
        for key in fields.keys.sorted() where !keys.contains(key) {
            report(path + "." + key, "unknown key; allowed: " + keys.sorted().joined(separator: ", "))
        }
        return fields
    }

    mutating func array(_ value: JSONValue?, at path: String, required: Bool) -> [JSONValue]? {
        guard let value else {
            if required { report(path, "is required") }
            return nil
        }
        guard case .array(let items) = value else {
            report(path, "expected an array, found \(value.typeName)")
            return nil
        }
        return items
    }

    mutating func requiredString(_ value: JSONValue?, at path: String) -> String? {
        guard value != nil else {
            report(path, "is required")
            return nil
        }
        return optionalString(value, at: path)
    }

    mutating func optionalString(_ value: JSONValue?, at path: String) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            report(path, "expected a string, found \(value.typeName)")
            return nil
        }
        return text
    }

    mutating func optionalBool(_ value: JSONValue?, at path: String) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else {
            report(path, "expected true or false, found \(value.typeName)")
            return nil
        }
        return flag
    }

    mutating func integer(_ value: JSONValue?, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return nil }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e9 else {
            report(path, "expected an integer, found \(value.typeName)")
            return nil
        }
        guard range.contains(Int(number)) else {
            report(path, "\(Int(number)) is outside \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return Int(number)
    }

    mutating func stringMap(_ value: JSONValue?, at path: String) -> [String: String] {
        guard let value else { return [:] }
        guard case .object(let fields) = value else {
            report(path, "expected an object of strings, found \(value.typeName)")
            return [:]
        }
        var map: [String: String] = [:]
        for (key, item) in fields {
            if let text = optionalString(item, at: path + "." + key) { map[key] = text }
        }
        return map
    }

    mutating func fieldTypes(_ value: JSONValue?, at path: String) -> [String: FieldType] {
        var types: [String: FieldType] = [:]
        for (name, declaration) in stringMap(value, at: path) {
            if let type = FieldType(declaration: declaration) {
                types[name] = type
            } else {
                report(path + "." + name, "\"\(declaration)\" is not a type; use "
                    + FieldType.Kind.allCases.map(\.rawValue).joined(separator: ", ") + ", optionally with ?")
            }
        }
        return types
    }

    mutating func checkUnique(_ names: [String], at path: String, what: String) {
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            report(path, "duplicate \(what) \"\(name)\"")
        }
    }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
