import ContractModel

/// Compares the shape of a backend's JSON answer with a fixture's: every key path the fixture has must be in the
/// answer with the same JSON type. `null` in the fixture stands for any type; an array's items are each compared
/// with the fixture array's first item; keys the answer has and the fixture lacks are extras, reported apart
/// (notes, or drift with `--strict`). Pure: values in, differences out.
enum ShapeComparison {
    /// One place where the shapes part, at an RFC 6901 pointer into the answer.
    struct Difference: Equatable, Sendable, CustomStringConvertible {
        let pointer: String
        /// The fixture's type there; `nil` for a key only the answer has.
        let fixture: String?
        /// The answer's type there; `nil` for a key the answer lacks.
        let backend: String?

        var description: String {
            let at = pointer.isEmpty ? "the body" : pointer
            switch (fixture, backend) {
            case (let fixture?, let backend?): return "\(at): fixture \(fixture), backend \(backend)"
            case (let fixture?, nil): return "\(at): missing from the backend's answer (fixture \(fixture))"
            case (nil, let backend?): return "\(at): only in the backend's answer (\(backend))"
            case (nil, nil): return at
            }
        }
    }

    /// The differences between `fixture` and `backend`: `drift` (a type changed, a key missing) and `extra`
    /// (keys only the answer has).
    static func compare(fixture: JSONValue, backend: JSONValue) -> (drift: [Difference], extra: [Difference]) {
        var drift: [Difference] = []
        var extra: [Difference] = []
        compare(fixture, backend, at: "", drift: &drift, extra: &extra)
        return (drift, extra)
    }

    private static func compare(_ fixture: JSONValue, _ backend: JSONValue, at pointer: String,
                                drift: inout [Difference], extra: inout [Difference]) {
        if case .null = fixture { return }
        guard typeName(fixture) == typeName(backend) else {
            drift.append(Difference(pointer: pointer, fixture: typeName(fixture), backend: typeName(backend)))
            return
        }
        switch (fixture, backend) {
        case (.object(let expected), .object(let found)):
            for key in expected.keys.sorted() {
                let child = pointer + JSONValue.pointer(toMember: key)
                guard let value = found[key], let model = expected[key] else {
                    drift.append(Difference(pointer: child, fixture: expected[key].map(typeName), backend: nil))
                    continue
                }
                compare(model, value, at: child, drift: &drift, extra: &extra)
            }
            for key in found.keys.sorted() where expected[key] == nil {
                extra.append(Difference(pointer: pointer + JSONValue.pointer(toMember: key), fixture: nil,
                                        backend: found[key].map(typeName)))
            }
        case (.array(let expected), .array(let found)):
            guard let model = expected.first else { return }
            // Each item against the model, a difference that many items share reported once, at the first of them.
            var seen: Set<String> = []
            for (index, item) in found.enumerated() {
                var itemDrift: [Difference] = [], itemExtra: [Difference] = []
                compare(model, item, at: pointer + "/\(index)", drift: &itemDrift, extra: &itemExtra)
                let prefix = pointer + "/\(index)"
                func first(_ difference: Difference) -> Bool {
                    let general = pointer + "/*" + difference.pointer.dropFirst(prefix.count)
                    return seen.insert(general + "\u{0}" + (difference.fixture ?? "") + "\u{0}" + (difference.backend ?? "")).inserted
                }
                drift += itemDrift.filter(first)
                extra += itemExtra.filter(first)
            }
        default:
            break
        }
    }

    /// The JSON type's name, as the report writes it.
    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        }
    }

    /// A template fixture's JSON, with each placeholder outside a string (`{"id": {{path.id}}}`) read as `null`,
    /// which stands for any type; placeholders inside strings stay text. `nil` when it is not JSON even so.
    static func templateShape(_ bytes: [UInt8]) -> JSONValue? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                out.append(byte)
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "}") && bytes[end + 1] == UInt8(ascii: "}")) {
                    end += 1
                }
                out += Array("null".utf8)
                index = end + 2
                continue
            }
            out.append(byte)
            index += 1
        }
        return try? JSONValue.parse(out)
    }
}
