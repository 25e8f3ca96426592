/// A blocking WebSocket client for tests that need the frames byte for byte (RFC 6455 §5.2): masked or not,
/// fragmented, with reserved bits, or broken on purpose. Written apart from the server's frame code, so that the
/// two check each other.
public final class WebSocketTestClient {
    public let raw: RawClient
    /// The server's answer to the opening handshake.
    public let handshake: RawResponse
    private var buffer: [UInt8] = []

    /// The RFC's example key (§1.3); its accept value is `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`.
    public static let exampleKey = "dGhlIHNhbXBsZSBub25jZQ=="

    /// Connects and sends the opening handshake for `target`; ``handshake`` holds the answer, whatever it is.
    public init(port: UInt16, target: String = "/", headers: [(String, String)] = [], key: String = exampleKey,
                timeout: Int = 10) throws {
        raw = try RawClient(port: port, timeout: timeout)
        var request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        raw.send(request + "\r\n")
        handshake = try raw.readResponse()
    }

    /// One frame as read off the wire.
    public struct Frame: Equatable, CustomStringConvertible {
        public let fin: Bool
        public let opcode: UInt8
        public let masked: Bool
        public let payload: [UInt8]

        public var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's code, if it has one.
        public var closeCode: UInt16? { payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil }
        public var description: String { "opcode \(opcode) fin \(fin) \(payload.count) bytes: \(text)" }
    }

    /// Sends one frame; masked with a fixed key unless `masked` is false.
    public func sendFrame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, reserved: UInt8 = 0) {
        raw.send(Self.frame(opcode: opcode, payload, fin: fin, masked: masked, reserved: reserved))
    }

    /// The bytes of one client frame.
    public static func frame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, reserved: UInt8 = 0)
        -> [UInt8]
    {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | reserved << 4 | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(mask | UInt8(payload.count))
        } else if payload.count < 65_536 {
            bytes += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(mask | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
        }
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        if masked { bytes += key }
        bytes += payload.enumerated().map { masked ? $1 ^ key[$0 % 4] : $1 }
        return bytes
    }

    public func send(text: String) { sendFrame(opcode: 1, Array(text.utf8)) }
    public func send(binary: [UInt8]) { sendFrame(opcode: 2, binary) }

    /// Sends a close frame with `code` (none when `nil`).
    public func sendClose(code: UInt16? = 1000, reason: String = "") {
        sendFrame(opcode: 8, code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] + Array(reason.utf8) } ?? [])
    }

    /// The next frame from the server; `nil` when the connection closed or nothing came in time.
    public func readFrame() -> Frame? {
        while true {
            if let (frame, length) = Self.parse(buffer) {
                buffer.removeFirst(length)
                return frame
            }
            guard let more = raw.readSome() else { return nil }
            buffer += more
        }
    }

    /// The next data frame's text, skipping pings and pongs; `nil` at a close frame or the end.
    public func readText() -> String? {
        while let frame = readFrame() {
            switch frame.opcode {
            case 1, 2: return frame.text
            case 8: return nil
            default: continue
            }
        }
        return nil
    }

    /// Reads until the connection ends: whether it ended cleanly (closed, not reset or timed out).
    public func readsToClose() -> Bool {
        raw.readToEnd().end == .closed
    }

    private static func parse(_ bytes: [UInt8]) -> (Frame, Int)? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var at = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            at = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            at = 10
        }
        let masked = bytes[1] & 0x80 != 0
        if masked { at += 4 }
        guard bytes.count >= at + length else { return nil }
        return (Frame(fin: bytes[0] & 0x80 != 0, opcode: bytes[0] & 0x0F, masked: masked,
                      payload: Array(bytes[at..<at + length])), at + length)
    }
}
