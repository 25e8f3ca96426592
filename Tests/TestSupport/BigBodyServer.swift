#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A loopback backend that answers every request with a large generated body (byte `i` is `i % 251`), framed by
/// `Content-Length` or chunked, written in 64 KiB pieces as fast as the socket takes them; one connection at a time,
/// each closed after its response. For relays that must stream a body rather than hold it.
public final class BigBodyServer: @unchecked Sendable {
    // @unchecked: constants set before the accept thread starts; `served` only touched under `lock`.
    public let port: UInt16
    private let fd: Int32
    private let size: Int
    private let chunked: Bool
    private let lock = NSLock()
    private var served = 0

    /// The byte at `index` of every body.
    public static func byte(at index: Int) -> UInt8 { UInt8(index % 251) }

    public init(size: Int, chunked: Bool) throws {
        _ = TestProcess.descriptorLimit
        self.size = size
        self.chunked = chunked
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw POSIXFailure(operation: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound, listen(fd, 16) == 0 else {
            let failure = POSIXFailure(operation: "bind/listen")
            close(fd)
            throw failure
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in serve() }
    }

    /// Responses written in full so far.
    public var responses: Int { lock.withLock { served } }

    public func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private func serve() {
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), recv(client, &byte, 1, 0) == 1 { head.append(byte) }
            let framing = chunked ? "Transfer-Encoding: chunked" : "Content-Length: \(size)"
            var ok = write(client, Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\(framing)\r\n\r\n".utf8))
            var offset = 0
            while ok && offset < size {
                let count = min(65_536, size - offset)
                let piece = (offset..<offset + count).map(Self.byte(at:))
                ok = chunked ? write(client, Array((String(count, radix: 16) + "\r\n").utf8) + piece + [13, 10]) : write(client, piece)
                offset += count
            }
            if ok && chunked { ok = write(client, Array("0\r\n\r\n".utf8)) }
            if ok { lock.withLock { served += 1 } }
            close(client)
        }
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let sent = bytes[offset...].withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
            #else
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #endif
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
