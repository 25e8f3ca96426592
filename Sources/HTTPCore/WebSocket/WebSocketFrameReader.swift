/// Reads the frames a WebSocket client sends (RFC 6455 §5) from bytes as they arrive, and joins fragments into
/// messages. Pure: no socket, so that every rule can be tested, and fuzzed, on bytes.
///
/// A frame that breaks the protocol ends the reading with the close code the RFC gives: 1002 for a frame a server
/// must not accept (unmasked, reserved bits or opcodes, a control frame fragmented or over 125 bytes, a length not
/// in its shortest form, a continuation out of place), 1007 for text that is not UTF-8, 1009 for a message over
/// ``maxMessageBytes`` (refused from its header, before its payload is waited for).
package struct WebSocketFrameReader {
    package enum Event: Equatable, Sendable {
        case message(WebSocketMessage)
        case ping([UInt8])
        case pong([UInt8])
        /// The peer's close frame: its code (`nil` when it sent none) and reason.
        case close(code: UInt16?, reason: String)
        /// The peer broke the protocol: close with `code`. Nothing is read after it.
        case violation(code: UInt16, reason: String)
    }

    /// The largest message, fragments joined, this reader accepts.
    package let maxMessageBytes: Int
    /// The opcode and payload so far of a fragmented message.
    private var fragments: (opcode: WebSocketFrame.Opcode, payload: [UInt8])?
    /// A violation or a close frame was read: nothing after it is.
    private(set) var isDone = false

    package init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Reads the first frame in `bytes`.
    /// - Returns: What the frame means, if anything (a fragment other than a message's last means nothing yet),
    ///   and how many bytes it took; `(nil, 0)` when the frame is not all there yet, or reading is over.
    package mutating func next(_ bytes: UnsafeRawBufferPointer) -> (event: Event?, consumed: Int) {
        guard !isDone, bytes.count >= 2 else { return (nil, 0) }
        let first = bytes[0], second = bytes[1]
        let isFinal = first & 0x80 != 0
        guard first & 0x70 == 0 else { return violation(WebSocketCloseCode.protocolError, "reserved bits set, and no extension agreed") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            return violation(WebSocketCloseCode.protocolError, "reserved opcode \(first & 0x0F)")
        }
        guard second & 0x80 != 0 else { return violation(WebSocketCloseCode.protocolError, "a client's frame must be masked") }
        var length = Int(second & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return (nil, 0) }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            guard length >= 126 else { return violation(WebSocketCloseCode.protocolError, "a length not in its shortest form") }
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return (nil, 0) }
            guard bytes[2] & 0x80 == 0 else { return violation(WebSocketCloseCode.protocolError, "a length with its top bit set") }
            var wide: UInt64 = 0
            for index in 2..<10 { wide = wide << 8 | UInt64(bytes[index]) }
            guard wide > 0xFFFF else { return violation(WebSocketCloseCode.protocolError, "a length not in its shortest form") }
            // Anything past the limit is refused below; clamped (far above any limit) so that the sums stay in range.
            length = Int(min(wide, UInt64(Int.max / 4)))
            offset = 10
        }
        if opcode.isControl {
            guard isFinal else { return violation(WebSocketCloseCode.protocolError, "a fragmented control frame") }
            guard length <= WebSocketFrame.maxControlPayload else {
                return violation(WebSocketCloseCode.protocolError, "a control frame over 125 bytes")
            }
        } else if opcode == .continuation {
            guard fragments != nil else { return violation(WebSocketCloseCode.protocolError, "a continuation frame with no message to continue") }
        } else if fragments != nil {
            return violation(WebSocketCloseCode.protocolError, "a new message before the last one's final fragment")
        }
        if !opcode.isControl, (fragments?.payload.count ?? 0) + length > maxMessageBytes {
            return violation(WebSocketCloseCode.messageTooBig, "a message over \(maxMessageBytes) bytes")
        }
        let maskAt = offset
        offset += 4
        guard bytes.count >= offset + length else { return (nil, 0) }
        let payload = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            for index in 0..<length { buffer[index] = bytes[offset + index] ^ bytes[maskAt + (index & 3)] }
            count = length
        }
        let consumed = offset + length

        switch opcode {
        case .ping: return (.ping(payload), consumed)
        case .pong: return (.pong(payload), consumed)
        case .close:
            isDone = true
            return (closeEvent(payload), consumed)
        case .text, .binary, .continuation:
            // Taken out while it grows, so that its storage is not shared and grows in place.
            if var pending = fragments.take() {
                pending.payload += payload
                guard isFinal else {
                    fragments = pending
                    return (nil, consumed)
                }
                return (message(pending.opcode, pending.payload), consumed)
            }
            guard isFinal else {
                fragments = (opcode, payload)
                return (nil, consumed)
            }
            return (message(opcode, payload), consumed)
        }
    }

    private mutating func message(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) -> Event {
        guard opcode == .text else { return .message(.binary(payload)) }
        guard let text = Self.text(payload) else {
            isDone = true
            return .violation(code: WebSocketCloseCode.invalidPayload, reason: "a text message that is not UTF-8")
        }
        return .message(.text(text))
    }

    private func closeEvent(_ payload: [UInt8]) -> Event {
        guard !payload.isEmpty else { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { return .violation(code: WebSocketCloseCode.protocolError, reason: "a close frame of one byte") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard WebSocketCloseCode.isSendable(code) else {
            return .violation(code: WebSocketCloseCode.protocolError, reason: "close code \(code) may not be sent")
        }
        guard let reason = Self.text(payload[2...]) else {
            return .violation(code: WebSocketCloseCode.invalidPayload, reason: "a close reason that is not UTF-8")
        }
        return .close(code: code, reason: reason)
    }

    private mutating func violation(_ code: UInt16, _ reason: String) -> (event: Event?, consumed: Int) {
        isDone = true
        return (.violation(code: code, reason: reason), 0)
    }

    /// `bytes` as text when they are UTF-8. (`String(validating:as:)` does this from macOS 15 and iOS 18, above the
    /// deployment targets: decoding repairs each bad sequence, so the repaired text differs from bad bytes.)
    private static func text(_ bytes: some Collection<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}

extension WebSocketFrameReader {
    /// Every event in `bytes`, for callers that have them in an array (tests, the fuzz harness).
    /// - Returns: The events, and how many bytes they took (the rest is an incomplete frame).
    package mutating func events(in bytes: [UInt8]) -> (events: [Event], consumed: Int) {
        var events: [Event] = []
        var consumed = 0
        bytes.withUnsafeBytes { buffer in
            while true {
                let (event, used) = next(UnsafeRawBufferPointer(rebasing: buffer[consumed...]))
                consumed += used
                if let event { events.append(event) }
                if event == nil && used == 0 { return }
            }
        }
        return (events, consumed)
    }
}
