/// The frame format of RFC 6455 §5.2: opcodes, and the frames a server writes (never masked, §5.1).
package enum WebSocketFrame {
    package enum Opcode: UInt8, Sendable {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

        /// Close, ping and pong: at most 125 bytes of payload, never fragmented (§5.5).
        package var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// A control frame carries at most this many bytes (§5.5).
    package static let maxControlPayload = 125

    /// One unfragmented, unmasked frame carrying `payload`.
    package static func encode(_ opcode: Opcode, _ payload: some Collection<UInt8>) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode.rawValue]
        let count = payload.count
        frame.reserveCapacity(count + 10)
        // The length in the fewest bytes that hold it (§5.2: "the minimal number of bytes MUST be used").
        if count < 126 {
            frame.append(UInt8(count))
        } else if count <= 0xFFFF {
            frame += [126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            frame.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8(truncatingIfNeeded: count >> shift)) }
        }
        frame += payload
        return frame
    }

    /// The frame that carries `message`.
    package static func encode(_ message: WebSocketMessage) -> [UInt8] {
        switch message {
        case .text(let text): encode(.text, text.utf8)
        case .binary(let bytes): encode(.binary, bytes)
        }
    }

    /// A close frame with `code` and as much of `reason` as fits the 123 bytes left (cut between characters).
    package static func close(code: UInt16, reason: String) -> [UInt8] {
        var payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var room = maxControlPayload - 2
        for scalar in reason.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            guard bytes.count <= room else { break }
            payload += bytes
            room -= bytes.count
        }
        return encode(.close, payload)
    }
}
