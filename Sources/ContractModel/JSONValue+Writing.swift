/// Compact JSON text (RFC 8259), written straight into bytes: response templates insert request
/// values with it, so it runs per request.
extension JSONValue {
    /// The value as compact JSON: no whitespace, object keys sorted so the output is stable, whole
    /// numbers below 10^15 without a fraction, and `null` for a number that is not finite.
    package var serialized: [UInt8] {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return bytes
    }

    /// Appends ``serialized`` to `bytes`. Iterative, with the open containers on the heap, for the same
    /// reason as the reader: a body nested 511 levels must not overflow a thread's stack.
    package func write(into bytes: inout [UInt8]) {
        var stack: [OpenContainer] = []
        var pending: JSONValue? = self
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: bytes.append(contentsOf: "null".utf8)
                case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
                case .number(let number): bytes.append(contentsOf: Self.text(of: number).utf8)
                case .string(let text): Self.quote(text, into: &bytes)
                case .array(let items):
                    bytes.append(UInt8(ascii: "["))
                    stack.append(.array(items[...]))
                case .object(let members):
                    bytes.append(UInt8(ascii: "{"))
                    stack.append(.object(members.sorted { $0.key < $1.key }[...]))
                }
            }
            // Hand out the innermost container's next member, or close it.
            guard let container = stack.popLast() else { return }
            switch container {
            case .array(let rest):
                guard let item = rest.first else { bytes.append(UInt8(ascii: "]")); continue }
                if rest.startIndex > 0 { bytes.append(UInt8(ascii: ",")) }
                stack.append(.array(rest.dropFirst()))
                pending = item
            case .object(let rest):
                guard let member = rest.first else { bytes.append(UInt8(ascii: "}")); continue }
                if rest.startIndex > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.quote(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                stack.append(.object(rest.dropFirst()))
                pending = member.value
            }
        }
    }

    /// Appends the content of a JSON string holding `text`, without the quotes: `"` and `\` escaped,
    /// control characters as `\n` `\r` `\t` `\b` `\f` or `\u00XX`, everything else as its UTF-8.
    package static func escape(_ text: String, into bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
    }

    /// Appends `text` as a JSON string literal, quotes included.
    package static func quote(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        escape(text, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A number's JSON text. Swift's description is the shortest that reads back to the same value, and
    /// its forms (`1.5`, `1e+15`, `-2.5e-07`) are all valid JSON numbers.
    package static func text(of number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number.rounded() == number && abs(number) < 1e15 { return String(Int(number)) }
        return number.description
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// A container being written: the members still to write, and whether one was written (a slice of an
/// array that starts at 0 has written none).
private enum OpenContainer {
    case array(ArraySlice<JSONValue>)
    case object(ArraySlice<(key: String, value: JSONValue)>)
}
