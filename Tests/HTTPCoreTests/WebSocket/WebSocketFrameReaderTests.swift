@testable import HTTPCore
import TestSupport
import Testing

@Suite struct WebSocketFrameReaderTests {
    private typealias Event = WebSocketFrameReader.Event
    private func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, reserved: UInt8 = 0) -> [UInt8] {
        WebSocketTestClient.frame(opcode: opcode, payload, fin: fin, masked: masked, reserved: reserved)
    }

    private func events(_ bytes: [UInt8], limit: Int = 1 << 20) -> [Event] {
        var reader = WebSocketFrameReader(maxMessageBytes: limit)
        return reader.events(in: bytes).events
    }

    /// RFC 6455 §5.7: "A single-frame masked text message".
    @Test func aMaskedTextFrame_FromTheRFC_IsHello() {
        #expect(events([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]) == [.message(.text("Hello"))])
    }

    @Test func fragments_WithAPingBetween_AreOneMessage_AfterThePing() {
        let bytes = frame(1, Array("Hel".utf8), fin: false) + frame(9, [1, 2]) + frame(0, Array("lo".utf8), fin: false)
            + frame(0, Array(", you".utf8))
        #expect(events(bytes) == [.ping([1, 2]), .message(.text("Hello, you"))])
    }

    /// A character split between fragments is valid once joined.
    @Test func textSplitInsideACharacter_IsValidOnceJoined() {
        #expect(events(frame(1, [0xC3], fin: false) + frame(0, [0xA9])) == [.message(.text("é"))])
    }

    @Test func lengthsOf126And65536Bytes_UseTheLongerForms() {
        let medium = [UInt8](repeating: 7, count: 300), large = [UInt8](repeating: 9, count: 70_000)
        #expect(events(frame(2, medium) + frame(2, large)) == [.message(.binary(medium)), .message(.binary(large))])
    }

    /// Every frame split at every byte reads the same as all at once.
    @Test func bytesArrivingOneByOne_ReadAsAllAtOnce() {
        let bytes = frame(1, Array("first".utf8)) + frame(2, [UInt8](repeating: 1, count: 200), fin: false)
            + frame(0, [2, 3]) + frame(10, []) + frame(8, [0x03, 0xE8] + Array("bye".utf8))
        var reader = WebSocketFrameReader(maxMessageBytes: 1 << 20)
        var got: [Event] = []
        var buffer: [UInt8] = []
        for byte in bytes {
            buffer.append(byte)
            let (more, consumed) = reader.events(in: buffer)
            got += more
            buffer.removeFirst(consumed)
        }
        #expect(got == events(bytes))
        #expect(got == [.message(.text("first")), .message(.binary([UInt8](repeating: 1, count: 200) + [2, 3])), .pong([]),
                        .close(code: 1000, reason: "bye")])
    }

    @Test func aCloseWithoutACode_HasNone() {
        #expect(events(frame(8, [])) == [.close(code: nil, reason: "")])
    }

    @Test(arguments: [
        ("unmasked", [0x81, 0x02, 0x68, 0x69], 1002),
        ("reserved bit", WebSocketTestClient.frame(opcode: 1, [0x68], reserved: 4), 1002),
        ("reserved opcode", WebSocketTestClient.frame(opcode: 3, [0x68]), 1002),
        ("control over 125", WebSocketTestClient.frame(opcode: 9, [UInt8](repeating: 0, count: 126)), 1002),
        ("fragmented ping", WebSocketTestClient.frame(opcode: 9, [1], fin: false), 1002),
        ("continuation first", WebSocketTestClient.frame(opcode: 0, [0x68]), 1002),
        ("text inside a message", WebSocketTestClient.frame(opcode: 1, [0x68], fin: false) + WebSocketTestClient.frame(opcode: 1, [0x68]), 1002),
        ("length not shortest", [0x82, 0xFE, 0x00, 0x05, 1, 2, 3, 4, 1, 2, 3, 4, 5], 1002),
        ("text not UTF-8", WebSocketTestClient.frame(opcode: 1, [0xC3, 0x28]), 1007),
        ("close of one byte", WebSocketTestClient.frame(opcode: 8, [0x03]), 1002),
        ("close code 1005", WebSocketTestClient.frame(opcode: 8, [0x03, 0xED]), 1002),
        ("close reason not UTF-8", WebSocketTestClient.frame(opcode: 8, [0x03, 0xE8, 0xFF]), 1007),
    ] as [(String, [UInt8], UInt16)])
    func aBrokenFrame_IsAViolation_WithTheRFCsCode(name: String, bytes: [UInt8], code: UInt16) {
        let got = events(bytes + frame(1, Array("after".utf8)))
        #expect(got.count == 1, "\(name)")
        guard case .violation(let actual, _)? = got.first else { Issue.record("\(name): \(got)"); return }
        #expect(actual == code, "\(name)")
    }

    /// Refused from the header: the 2 MB payload is never waited for.
    @Test func aMessageOverTheLimit_Is1009_FromItsHeaderAlone() {
        let header = Array(frame(2, [UInt8](repeating: 0, count: 2_000_000)).prefix(14))
        #expect(events(header, limit: 1_000_000) == [.violation(code: 1009, reason: "a message over 1000000 bytes")])
        // Fragments count together.
        let parts = frame(2, [UInt8](repeating: 0, count: 600), fin: false) + frame(0, [UInt8](repeating: 0, count: 600))
        guard case .violation(1009, _)? = events(parts, limit: 1000).last else { Issue.record("not 1009"); return }
    }

    /// Arbitrary bytes never crash the reader, and every event it reads is one the protocol allows.
    @Test func randomBytes_NeverCrash() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty, Bool.random(using: &generator) { bytes[0] = 0x81 }
            if bytes.count > 1, Bool.random(using: &generator) { bytes[1] |= 0x80 }
            var reader = WebSocketFrameReader(maxMessageBytes: 100)
            let (_, consumed) = reader.events(in: bytes)
            #expect(consumed <= bytes.count)
        }
    }
}

@Suite struct WebSocketFrameTests {
    @Test func encode_UsesTheShortestLength_AndNoMask() {
        #expect(WebSocketFrame.encode(.text, Array("Hello".utf8)) == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(Array(WebSocketFrame.encode(.binary, [UInt8](repeating: 0, count: 256)).prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(Array(WebSocketFrame.encode(.binary, [UInt8](repeating: 0, count: 65_536)).prefix(10))
            == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
    }

    @Test func close_CutsAReasonOverTheControlLimit_BetweenCharacters() {
        // 123 bytes of reason would split an "é": 61 of them (122 bytes) are kept.
        let frame = WebSocketFrame.close(code: 1000, reason: String(repeating: "é", count: 100))
        #expect(frame[1] == 124)
        #expect(frame.count == 126)
        #expect(String(decoding: frame[4...], as: UTF8.self) == String(repeating: "é", count: 61))
        let full = WebSocketFrame.close(code: 1000, reason: "a" + String(repeating: "é", count: 100))
        #expect(full[1] == 125)
    }
}
