/// Indented JSON text for files people read and diff: contracts and fixtures written by the OpenAPI import,
/// documents written by the export.
extension JSONValue {
    /// The value as JSON indented by two spaces, one member or item per line, with a final line break.
    /// Object keys are sorted, so the same value always gives the same text; keys named in `keyOrder` come
    /// first, in that order (a contract reads `id`, `method`, `path` before the rest).
    /// - Parameters:
    ///   - keyOrder: Keys to put first wherever they occur, in this order.
    ///   - plainUnder: Keys whose object values are maps of names (a contract's `query`, `fields`): their
    ///     members are sorted plainly, since a name there is not a key of the format.
    package func prettyPrinted(keyOrder: [String] = [], plainUnder: Set<String> = []) -> [UInt8] {
        let rank = Dictionary(keyOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var bytes: [UInt8] = []
        // Iterative, like `write(into:)`: a value nested 511 levels must not overflow a thread's stack.
        var stack: [PrettyContainer] = []
        var pending: JSONValue? = self
        var pendingKey: String?
        while true {
            if let value = pending {
                pending = nil
                let ranked = !(pendingKey.map(plainUnder.contains) ?? false)
                switch value {
                case .array(let items) where !items.isEmpty:
                    bytes.append(UInt8(ascii: "["))
                    stack.append(.array(items[...]))
                case .object(let members) where !members.isEmpty:
                    bytes.append(UInt8(ascii: "{"))
                    let sorted = members.sorted { left, right in
                        let (l, r) = ranked ? (rank[left.key] ?? Int.max, rank[right.key] ?? Int.max) : (0, 0)
                        return l != r ? l < r : left.key < right.key
                    }
                    stack.append(.object(sorted[...]))
                default:
                    value.write(into: &bytes) // scalars, `[]` and `{}`
                }
            }
            guard let container = stack.popLast() else {
                bytes.append(UInt8(ascii: "\n"))
                return bytes
            }
            let depth = stack.count + 1
            switch container {
            case .array(let rest):
                guard let item = rest.first else {
                    Self.newLine(indent: depth - 1, into: &bytes)
                    bytes.append(UInt8(ascii: "]"))
                    continue
                }
                if rest.startIndex > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.newLine(indent: depth, into: &bytes)
                stack.append(.array(rest.dropFirst()))
                pending = item
                pendingKey = nil
            case .object(let rest):
                guard let member = rest.first else {
                    Self.newLine(indent: depth - 1, into: &bytes)
                    bytes.append(UInt8(ascii: "}"))
                    continue
                }
                if rest.startIndex > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.newLine(indent: depth, into: &bytes)
                Self.quote(member.key, into: &bytes)
                bytes.append(contentsOf: ": ".utf8)
                stack.append(.object(rest.dropFirst()))
                pending = member.value
                pendingKey = member.key
            }
        }
    }

    private static func newLine(indent: Int, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }
}

/// A container being written, with the members still to write.
private enum PrettyContainer {
    case array(ArraySlice<JSONValue>)
    case object(ArraySlice<(key: String, value: JSONValue)>)
}
