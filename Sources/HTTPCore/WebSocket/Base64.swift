/// Base64 (RFC 4648 §4, with padding), for WebSocket handshakes and binary messages, in the HTTP core, which
/// does without Foundation.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64, padded with `=`.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index < input.count {
            let rest = input.count - index
            let b0 = input[index], b1 = rest > 1 ? input[index + 1] : 0, b2 = rest > 2 ? input[index + 2] : 0
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            output.append(rest > 1 ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            output.append(rest > 2 ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes, or `nil` when it is not padded base64 (whitespace is not allowed; bits the
    /// padding leaves over must be zero, so that each value has one spelling).
    package static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            var values: [UInt8] = []
            var padding = 0
            for byte in input[index..<index + 4] {
                if byte == UInt8(ascii: "=") {
                    guard isLast else { return nil }
                    padding += 1
                    continue
                }
                guard padding == 0, let value = value(of: byte) else { return nil }
                values.append(value)
            }
            guard padding <= 2 else { return nil }
            output.append(values[0] << 2 | values[1] >> 4)
            if values.count > 2 { output.append(values[1] << 4 | values[2] >> 2) } else if values[1] & 0x0F != 0 { return nil }
            if values.count > 3 { output.append(values[2] << 6 | values[3]) } else if values.count == 3, values[2] & 0x03 != 0 { return nil }
            index += 4
        }
        return output
    }

    private static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
