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
    // @unchecked: constants, set before the accept thread starts.
    public let port: UInt16
    private let fd: Int32
    private let size: Int
    private let chunked: Bool

    /// The byte at `index` of every body.
    public static func byte(at index: Int) -> UInt8 { UInt8(index % 251) }

    public init(size: Int, chunked: Bool) throws {
        self.size = size
        self.chunked = chunked
        (fd, port) = try LoopbackSocket.bound(listening: true)
        Thread.detachNewThread { [self] in serve() }
    }

    public func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        LoopbackSocket.close(fd)
    }

    private func serve() {
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            LoopbackSocket.noSignalOnDarwin(client)
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]), recv(client, &byte, 1, 0) == 1 { head.append(byte) }
            let framing = chunked ? "Transfer-Encoding: chunked" : "Content-Length: \(size)"
            var ok = LoopbackSocket.sendAll(client, Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\(framing)\r\n\r\n".utf8))
            var offset = 0
            while ok && offset < size {
                let count = min(65_536, size - offset)
                let piece = (offset..<offset + count).map(Self.byte(at:))
                ok = LoopbackSocket.sendAll(client, chunked ? Array((String(count, radix: 16) + "\r\n").utf8) + piece + [13, 10] : piece)
                offset += count
            }
            if ok && chunked { LoopbackSocket.sendAll(client, Array("0\r\n\r\n".utf8)) }
            LoopbackSocket.close(client)
        }
    }
}
