#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPCore

/// A blocking TCP client for byte-exact conversations with the server.
public final class RawClient {
    public let fd: Int32

    /// How long ``readResponse()`` waits for a response: the `timeout` given, or else ``responsePatience``.
    private let responseWait: Int

    /// How long ``readResponse()`` waits when no `timeout` was given. A response is expected, so only a broken
    /// server takes this long; a 2-core CI run of the suite under ThreadSanitizer kept a server's thread from
    /// answering for more than 5 s, the read timeout this client had used for everything.
    public static let responsePatience = 30

    /// Connects to `host`:`port` (IPv4); reads time out after `timeout` seconds (5 when none is given,
    /// except ``readResponse()``: see ``responsePatience``).
    /// - Parameter receiveBuffer: A receive buffer size to ask for before connecting (a small one makes
    ///   a client that stops reading back-pressure the server sooner).
    public init(port: UInt16, host: String = "127.0.0.1", timeout: Int? = nil, receiveBuffer: Int32? = nil) throws {
        responseWait = timeout ?? Self.responsePatience
        _ = TestProcess.descriptorLimit
        #if canImport(Darwin)
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw POSIXFailure(operation: "socket") }
        // Darwin has no MSG_NOSIGNAL: a send to a connection the server closed must not kill the runner.
        LoopbackSocket.noSignalOnDarwin(fd)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { close(fd); throw POSIXFailure(operation: "connect") }
        var tv = timeval(tv_sec: timeout ?? 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    public func send(_ text: String) { send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) {
        LoopbackSocket.sendAll(fd, bytes)
    }

    /// How a read ended.
    public enum End: Equatable { case closed, reset, timedOut }

    /// Reads until the peer closes, resets or the read times out.
    public func readToEnd() -> (bytes: [UInt8], end: End) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 { bytes += chunk[0..<count]; continue }
            if count == 0 { return (bytes, .closed) }
            return (bytes, errno == ECONNRESET ? .reset : .timedOut)
        }
    }

    /// Reads one whole response framed by Content-Length (no chunked responses are ever sent).
    public func readResponse() throws -> RawResponse {
        // Bytes of this response may have arrived with the previous one (pipelining).
        var bytes = pending
        pending = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date(timeIntervalSinceNow: Double(responseWait))
        while true {
            if let response = RawResponse(parsing: bytes) {
                pending = Array(bytes[response.totalLength...])
                return response
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            let error = errno
            let timedOut = count < 0 && (error == EAGAIN || error == EWOULDBLOCK)
            if count > 0 {
                bytes += chunk[0..<count]
            } else if timedOut && Date() < deadline || count < 0 && error == EINTR {
                continue  // the socket's read timeout is shorter than the wait for a response
            } else {
                errno = error
                let end = count == 0 ? "closed" : timedOut ? "timed out" : "failed"
                throw POSIXFailure(operation: "recv \(end) (got \(bytes.count) bytes)")
            }
        }
    }

    private var pending: [UInt8] = []

    /// One read of whatever has arrived (after bytes left over from ``readResponse()``); `nil` when the
    /// peer closed, reset, or nothing came before the timeout.
    public func readSome() -> [UInt8]? {
        if !pending.isEmpty {
            defer { pending = [] }
            return pending
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &chunk, chunk.count, 0)
        return count > 0 ? Array(chunk[0..<count]) : nil
    }

    /// Whether the peer has neither sent a byte nor closed: a read now would block.
    public var isOpenAndSilent: Bool {
        guard pending.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    /// Half-closes the sending side.
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }
}

public struct POSIXFailure: Error, CustomStringConvertible {
    public let operation: String
    public let code = errno
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// A response as read off the wire.
public struct RawResponse {
    public let statusLine: String
    public let headers: [(String, String)]
    public let body: [UInt8]
    public let totalLength: Int

    public var status: Int { Int(statusLine.split(separator: " ")[1]) ?? 0 }
    public var text: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Parses a complete response, or `nil` if more bytes are needed. HEAD and 1xx are not expected here.
    public init?(parsing bytes: [UInt8], bodyless: Bool = false) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator })
        else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        statusLine = lines[0]
        headers = lines.dropFirst().map { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : "")
        }
        let length = bodyless ? 0 : Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
        guard bytes.count >= end + 4 + length else { return nil }
        body = Array(bytes[(end + 4)..<(end + 4 + length)])
        totalLength = end + 4 + length
    }
}

public extension RawClient {
    /// Sends a GET and reads its response.
    func get(_ target: String, headers: [String: String] = [:]) throws -> RawResponse {
        var text = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        send(text + "\r\n")
        return try readResponse()
    }
}

public extension RawClient {
    /// Sends any request, with a `Content-Length` when there is a body, and reads its response.
    func request(
        _ method: String,
        _ target: String,
        headers: [String: String] = [:],
        body: String = ""
    ) throws -> RawResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { text += "Content-Length: \(body.utf8.count)\r\n" }
        send(text + "\r\n" + body)
        return try readResponse()
    }
}
