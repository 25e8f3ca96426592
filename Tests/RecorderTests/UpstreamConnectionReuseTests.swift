import Foundation
import HTTPCore
@testable import Recorder
import Testing
import TestSupport

/// The upstream client keeps a connection whose response ended by its framing, and uses it for the next request;
/// a connection the target closes is not used again, and an idempotent request that meets one closed is sent again.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct UpstreamConnectionReuseTests {
    /// A backend on a raw socket that answers every request `ok` (or as its manner says) and counts the connections it
    /// accepted.
    final class CountingBackend: Sendable {
        enum Manner: Equatable {
            case keepAlive, closeAfterEach, closeWhenIdle
            /// Answers the first request on a connection; at the next, closes without a word.
            case closeAtTheSecond
            /// Answers two requests on a connection, then closes it without a word.
            case closeAfterTwo
            /// Answers the first request on a connection, then reads requests and never answers.
            case silentAfterTheFirst
            /// Answers every request with a body of this many bytes, `i % 251` each, keeping the connection.
            case large(Int)
            /// Answers each request once its head is read, then reads nothing for a second (a body still coming waits).
            case answersBeforeTheBody
        }
        private let listener: ProxyHarness.Listener

        /// - Parameter receiveBuffer: `SO_RCVBUF` for the accepted connections (set on the listener, which they inherit).
        init(_ manner: Manner, receiveBuffer: Int32? = nil) throws {
            listener = try ProxyHarness.Listener(receiveBuffer: receiveBuffer) { fd in Self.answer(fd, manner) }
        }

        var port: UInt16 { listener.port }
        var accepted: Int { listener.accepted }
        /// Connections it has closed (or seen closed).
        var closed: Int { listener.closed }

        func stop() { listener.stop() }

        /// Answers each request on `fd` until the client leaves (or, closing, after one).
        private static func answer(_ fd: Int32, _ manner: Manner) {
            var answered = 0
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                switch chunk.withUnsafeMutableBytes({ POSIX.read(fd, into: $0) }) {
                case .bytes(let count): pending += chunk[0..<count]
                case .wouldBlock:
                    if POSIX.wait(fd, forWriting: false, deadline: POSIX.monotonicNanoseconds() + 5_000_000_000) != nil { return }
                    continue
                case .closed: return
                }
                guard let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
                pending.removeSubrange(..<end.upperBound)
                if manner == .silentAfterTheFirst && answered == 1 { continue }
                if manner == .closeAtTheSecond && answered == 1 { return }
                answered += 1
                let close = manner == .closeAfterEach ? "Connection: close\r\n" : ""
                var response = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\(close)\r\nok".utf8)
                if case .large(let size) = manner {
                    response = Array("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n".utf8) + UpstreamConnectionReuseTests.largeBody(size)
                }
                guard UpstreamConnectionReuseTests.send(response, on: fd) else { return }
                if manner == .answersBeforeTheBody { Thread.sleep(forTimeInterval: 1) }
                if manner == .closeAfterEach || manner == .closeWhenIdle || manner == .closeAfterTwo && answered == 2 { return }
            }
        }
    }

    /// `size` bytes, byte `i` being `i % 251`: written a run of 251 at a time, quick even under a sanitizer.
    static func largeBody(_ size: Int) -> [UInt8] {
        let run = (0..<251).map(UInt8.init)
        var body: [UInt8] = []
        body.reserveCapacity(size)
        while body.count < size { body += run.prefix(size - body.count) }
        return body
    }

    /// Writes all of `bytes`, waiting while the socket is full; `false` when the peer left.
    static func send(_ bytes: [UInt8], on fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            switch bytes[offset...].withUnsafeBytes({ POSIX.write(fd, $0, nil) }) {
            case .bytes(let count): offset += count
            case .wouldBlock:
                if POSIX.wait(fd, forWriting: true, deadline: POSIX.monotonicNanoseconds() + 5_000_000_000) != nil { return false }
            case .closed: return false
            }
        }
        return true
    }

    private func get(_ client: UpstreamClient, port: UInt16) throws -> String {
        let target = try UpstreamTarget(parsing: "http://127.0.0.1:\(port)")
        let bytes = UpstreamRequest.bytes(for: HTTPRequest(method: .get, target: "/x"), target: target)
        switch client.exchange(bytes, method: .get) {
        case .success(let response): return String(decoding: response.body, as: UTF8.self)
        case .failure(let failure): return "failed: \(failure)"
        }
    }

    @Test func aRunOfRequests_UsesOneConnection() throws {
        let backend = try CountingBackend(.keepAlive)
        defer { backend.stop() }
        let client = UpstreamClient(host: "127.0.0.1", port: backend.port, timeout: 5)
        for _ in 0..<5 { #expect(try get(client, port: backend.port) == "ok") }
        #expect(backend.accepted == 1)
    }

    @Test func aConnectionTheTargetCloses_IsNotUsedAgain() throws {
        let closing = try CountingBackend(.closeAfterEach)
        defer { closing.stop() }
        let client = UpstreamClient(host: "127.0.0.1", port: closing.port, timeout: 5)
        for _ in 0..<3 { #expect(try get(client, port: closing.port) == "ok") }
        #expect(closing.accepted == 3)
        // One that closes while it sits idle, without saying so: the next request still gets its answer.
        let quiet = try CountingBackend(.closeWhenIdle)
        defer { quiet.stop() }
        let other = UpstreamClient(host: "127.0.0.1", port: quiet.port, timeout: 5)
        for _ in 0..<3 {
            #expect(try get(other, port: quiet.port) == "ok")
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(quiet.accepted == 3)
    }
}
