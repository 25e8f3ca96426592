#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A loopback HTTP server that answers every request with the same bytes, then closes the connection:
/// for responses the mock server refuses to send on purpose, such as a 401 with a `Basic` challenge.
public final class CannedServer: @unchecked Sendable {
    // @unchecked: the stored constants are set before the accept thread starts; `received`
    // is only touched while holding `lock`.
    public let port: UInt16
    private let fd: Int32
    private let response: [UInt8]
    private let lock = NSLock()
    private var received = 0

    /// Starts listening on 127.0.0.1 on a free port.
    /// - Parameter response: The whole response, status line to body, sent to every request.
    public init(response: String) throws {
        self.response = Array(response.utf8)
        (fd, port) = try LoopbackSocket.bound(listening: true)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// How many requests have been answered.
    public var requests: Int { lock.withLock { received } }

    /// Stops accepting; the port is freed.
    public func stop() {
        _ = shutdown(fd, Int32(SHUT_RDWR))
        LoopbackSocket.close(fd)
    }

    private func acceptLoop() {
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            // A bounded life for each connection: a client that never closes cannot keep a thread forever.
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    /// Reads one request (head and Content-Length body), answers, closes.
    private func serve(_ client: Int32) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound].lowercased()
            let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound) + length <= bytes.count { break }
        }
        lock.withLock { received += 1 }
        response.withUnsafeBytes { _ = send(client, $0.baseAddress, $0.count, 0) }
        _ = shutdown(client, Int32(SHUT_WR))
        // Wait for the client to close its side, so the response is not cut short by a reset.
        while recv(client, &buffer, buffer.count, 0) > 0 {}
        LoopbackSocket.close(client)
    }
}
