import Foundation
import TestSupport
import Testing

/// `mock-server --proxy` relays a large body as it arrives, at the client's pace: the whole body, byte for byte, with
/// the server's memory far below the body's size.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableProxyStreamingTests {
    private static let size = 32 << 20

    /// Reads a whole response to `GET /download` from `port`: its head, and the body's length and whether every byte
    /// is the backend's (de-chunked when chunked). Slowly at first, as a client on a poor network.
    private func download(port: UInt16) throws -> (head: String, length: Int, intact: Bool) {
        let client = try RawClient(port: port, timeout: 20, receiveBuffer: 16 * 1024)
        client.send("GET /download HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        var bytes: [UInt8] = []
        var reads = 0
        while let more = client.readSome() {
            bytes += more
            reads += 1
            if reads < 50 { Thread.sleep(forTimeInterval: 0.005) }
        }
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { return ("", 0, false) }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        var body = Array(bytes[end.upperBound...])
        if head.lowercased().contains("transfer-encoding: chunked") { body = Self.dechunked(body) }
        return (head, body.count, Self.isTheBackendsBody(body))
    }

    /// Whether byte `i` of `body` is `i % 251` throughout: compared a block at a time with `memcmp`, since a byte loop
    /// over 32 MiB is slow in a debug build, and slower under a sanitizer.
    private static func isTheBackendsBody(_ body: [UInt8]) -> Bool {
        let block = (0..<251 * 256).map(BigBodyServer.byte(at:))
        return body.withUnsafeBytes { bytes in
            block.withUnsafeBytes { pattern in
                var offset = 0
                while offset < bytes.count {
                    let count = min(pattern.count, bytes.count - offset)
                    guard let base = bytes.baseAddress, let expected = pattern.baseAddress,
                          memcmp(base + offset, expected, count) == 0 else { return false }
                    offset += count
                }
                return true
            }
        }
    }

    private static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstRange(of: [13, 10]) {
            let size = Int(String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { break }
            body += bytes[lineEnd.upperBound..<lineEnd.upperBound + size]
            index = lineEnd.upperBound + size + 2
        }
        return body
    }

    /// The server's peak resident memory, in MiB, where /proc tells it.
    private func peakMiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kib / 1024
    }

    @Test(arguments: [false, true])
    func aLargeBody_IsRelayedWhole_WithoutTheServerHoldingIt(chunked: Bool) async throws {
        let backend = try BigBodyServer(size: Self.size, chunked: chunked)
        defer { backend.stop() }
        try await offThePool {
            let server = try RunningExecutable(["--proxy", "http://127.0.0.1:\(backend.port)", "--log", "off",
                                                "--contracts", ContractCatalog.contractsDirectory,
                                                "--fixtures", ContractCatalog.fixturesDirectory])
            defer { server.stop() }
            let before = peakMiB(server.process.processIdentifier)
            let (head, length, intact) = try download(port: server.port)
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
            #expect(head.contains(chunked ? "Transfer-Encoding: chunked" : "Content-Length: \(Self.size)"), "\(head)")
            #expect(length == Self.size)
            #expect(intact)
            // A sanitizer's allocator keeps freed memory aside (AddressSanitizer's quarantine), so the peak says nothing
            // there: .ci/run names the sanitizer of its stages in MOCK_SERVER_SANITIZER.
            let sanitized = ProcessInfo.processInfo.environment["MOCK_SERVER_SANITIZER"] != nil
            if !sanitized, let before, let after = peakMiB(server.process.processIdentifier) {
                // The body is 32 MiB; what the server holds of it at once is a few hundred KiB.
                #expect(after - before < 12, "peak memory grew from \(before) to \(after) MiB")
            }
        }
    }
}
