import Foundation
import HTTPCore
import MockServer
@testable import Recorder
import Testing
import TestSupport

/// `--proxy` passes a long or chunked request body on to the backend as it arrives, over real sockets: past the size
/// limit of bodies read whole, in the client's framing, with `100 Continue`, holding the client back while the backend
/// does not read, ending the backend's request when the client leaves, the body stalls or the server stops, relaying a
/// backend's early answer without keeping its connection, and recording what fits. A body for one of the contract's
/// own endpoints is still read whole, as before.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct UploadRelayTests {
    /// A backend that reads each request's body (by `Content-Length` or chunked) and answers what it got:
    /// `bytes sum framing`.
    final class UploadBackend: Sendable {
        enum Manner {
            case reads
            /// Answers 413 once the head is read, and closes without reading the body.
            case refusesAtTheHead
            /// Reads the head, then nothing until ``resume()``.
            case stallsAfterTheHead
        }

        private let listener: ProxyHarness.Listener
        private let resumed: DispatchSemaphore

        init(_ manner: Manner) throws {
            let resumed = DispatchSemaphore(value: 0)
            self.resumed = resumed
            listener = try ProxyHarness.Listener(receiveBuffer: 64 * 1024) { fd in Self.answer(fd, manner, resumed) }
        }

        var port: UInt16 { listener.port }
        /// Connections that ended, by either side.
        var closed: Int { listener.closed }
        /// Connections accepted.
        var accepted: Int { listener.accepted }

        func resume() { resumed.signal() }

        func stop() { listener.stop() }

        private static func answer(_ fd: Int32, _ manner: Manner, _ resumed: DispatchSemaphore) {
            var reader = Reader(fd: fd)
            while let head = reader.head() {
                switch manner {
                case .refusesAtTheHead:
                    let refusal = "HTTP/1.1 413 Content Too Large\r\nContent-Length: 7\r\nConnection: close\r\n\r\ntoo big"
                    _ = UpstreamConnectionReuseTests.send(Array(refusal.utf8), on: fd)
                    return
                case .stallsAfterTheHead:
                    resumed.wait()
                case .reads:
                    break
                }
                let chunked = head.lowercased().contains("transfer-encoding: chunked")
                var checksum = Checksum()
                if chunked {
                    while let size = reader.line().flatMap({ Int($0, radix: 16) }) {
                        guard size > 0 else { break }
                        guard reader.body(size, into: &checksum), reader.line() != nil else { return }
                    }
                    _ = reader.line()
                } else {
                    let length = head.split(separator: "\r\n")
                        .first { $0.lowercased().hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                    guard reader.body(length, into: &checksum) else { return }
                }
                let text = "\(checksum.count) \(checksum.value) \(chunked ? "chunked" : "length")"
                let response = "HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\n\r\n" + text
                guard UpstreamConnectionReuseTests.send(Array(response.utf8), on: fd) else { return }
            }
        }

        /// Reads a connection's bytes as lines and counted bodies.
        struct Reader {
            let fd: Int32
            var buffered: [UInt8] = []

            /// More bytes; `false` when the peer closed or nothing came for 10 s.
            mutating func fill() -> Bool {
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                while true {
                    switch chunk.withUnsafeMutableBytes({ POSIX.read(fd, into: $0) }) {
                    case .bytes(let count):
                        buffered += chunk[0..<count]
                        return true
                    case .wouldBlock:
                        if POSIX.wait(fd, forWriting: false, deadline: POSIX.monotonicNanoseconds() + 10_000_000_000) != nil {
                            return false
                        }
                    case .closed:
                        return false
                    }
                }
            }

            mutating func head() -> String? {
                while true {
                    if let end = buffered.firstRange(of: Array("\r\n\r\n".utf8)) {
                        defer { buffered.removeSubrange(..<end.upperBound) }
                        return String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
                    }
                    guard fill() else { return nil }
                }
            }

            mutating func line() -> String? {
                while true {
                    if let end = buffered.firstRange(of: [13, 10]) {
                        defer { buffered.removeSubrange(..<end.upperBound) }
                        return String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
                    }
                    guard fill() else { return nil }
                }
            }

            mutating func body(_ count: Int, into checksum: inout Checksum) -> Bool {
                var left = count
                while left > 0 {
                    if buffered.isEmpty, !fill() { return false }
                    let take = min(left, buffered.count)
                    checksum.add(buffered[..<take])
                    buffered.removeSubrange(..<take)
                    left -= take
                }
                return true
            }
        }
    }

    /// A count and an order-sensitive sum of bytes: equal for two bodies only if they are (here) the same.
    struct Checksum: Equatable {
        var count = 0
        var value: UInt64 = 0

        mutating func add(_ bytes: ArraySlice<UInt8>) {
            var value = value
            bytes.withUnsafeBufferPointer { buffer in
                for byte in buffer { value = value &* 31 &+ UInt64(byte) &+ 1 }
            }
            self.value = value
            count += bytes.count
        }

        static func of(_ bytes: [UInt8]) -> Checksum {
            var sum = Checksum()
            sum.add(bytes[...])
            return sum
        }
    }

    /// The server (one event loop), with an endpoint of its own (`POST /items`), relaying the rest to `backend`.
    private func withProxy(to port: UInt16, recording: Recording? = nil, bodyTimeout: Double = 30,
                           _ body: (MockServer) throws -> Void) throws {
        try ProxyHarness.withProxy(to: port, timeout: 10, recording: recording, bodyTimeout: bodyTimeout) { server, _ in
            try body(server)
        }
    }

    private static let limit = HTTPLimits().bodyBytes

    /// Sends `bytes` on `client` from another thread (the server may stop reading before they are all sent), and
    /// returns a wait for that thread to end, called before the client closes its descriptor.
    private static func sendAside(_ bytes: [UInt8], on client: RawClient) -> () -> Void {
        let fd = client.fd
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = LoopbackSocket.sendAll(fd, bytes)
            ended.signal()
        }
        return {
            // A send the server no longer reads ends at the close; shut down here so that it does.
            shutdown(fd, Int32(SHUT_RDWR))
            ended.wait()
        }
    }

    /// A body over the limit of bodies read whole: a POST to a path the contract lacks.
    private static func upload(_ body: [UInt8], headers: String = "") -> [UInt8] {
        Array("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\(headers)\r\n".utf8) + body
    }

    @Test func aBodyOverTheLimit_ReachesTheBackendWhole_AndTheConnectionGoesOn() throws {
        let backend = try UploadBackend(.reads)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let body = UpstreamConnectionReuseTests.largeBody(Self.limit + 3 * 1024 * 1024 + 7)
            let client = try RawClient(port: server.port, timeout: 30)
            client.send(Self.upload(body))
            let response = try client.readResponse()
            let sum = Checksum.of(body)
            #expect(response.status == 200 && response.text == "\(sum.count) \(sum.value) length", "\(response.text)")
            // The body was read to its end, so the next request on the connection is read as one.
            let next = try client.request("POST", "/items", body: "{}")
            #expect(next.status == 204)
        }
    }

    @Test func aChunkedBody_GoesOnChunked_PartByPart() throws {
        let backend = try UploadBackend(.reads)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let body = UpstreamConnectionReuseTests.largeBody(3 * 1024 * 1024 + 11)
            var wire = Array("PUT /files/a HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            var offset = 0
            for size in [1, 4095, 70_000, 1_000_000].cycled(until: body.count) {
                let piece = body[offset..<min(body.count, offset + size)]
                wire += Array("\(String(piece.count, radix: 16));ext=1\r\n".utf8) + piece + [13, 10]
                offset += piece.count
            }
            wire += Array("0\r\nX-Trailer: t\r\n\r\n".utf8)
            let client = try RawClient(port: server.port, timeout: 30)
            client.send(wire)
            let response = try client.readResponse()
            let sum = Checksum.of(body)
            #expect(response.status == 200 && response.text == "\(sum.count) \(sum.value) chunked", "\(response.text)")
        }
    }

    /// While recording, an upload that fits `--max-record-bytes` is recorded whole; a larger one is relayed, not
    /// recorded.
    @Test func anUploadIsRecorded_WhenItFitsTheRecordingsLimit() throws {
        let backend = try UploadBackend(.reads)
        defer { backend.stop() }
        let folders = try RecordingFolders()
        let recording = Recording(writer: folders.writer(), maxBodyBytes: 3 << 20)
        try withProxy(to: backend.port, recording: recording) { server in
            let client = try RawClient(port: server.port, timeout: 30)
            for size in [2 << 20, 4 << 20] {
                let body = UpstreamConnectionReuseTests.largeBody(size)
                client.send(Self.upload(body))
                let response = try client.readResponse()
                let sum = Checksum.of(body)
                #expect(response.status == 200 && response.text == "\(sum.count) \(sum.value) length", "\(response.text)")
            }
        }
        let recorded = recording.recorded
        #expect(recorded.count == 1, "the 4 MiB upload is over the limit")
        let whole = recorded.first?.requestBody == UpstreamConnectionReuseTests.largeBody(2 << 20)
        #expect(whole && recorded.first?.path == "/upload")
    }

    /// A request sent in the same write as the end of an upload is read after it, and answered in turn.
    @Test func aRequestPipelinedBehindAnUpload_IsAnsweredAfterIt() throws {
        let backend = try UploadBackend(.reads)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let body = UpstreamConnectionReuseTests.largeBody((1 << 20) + 1)
            let client = try RawClient(port: server.port, timeout: 30)
            client.send(Self.upload(body) + Array("POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}".utf8))
            let sum = Checksum.of(body)
            #expect(try client.readResponse().text == "\(sum.count) \(sum.value) length")
            #expect(try client.readResponse().status == 204)
        }
    }

    /// A client that stops sending its upload gets a 408 after the body's timeout (30 s; 1 s here), counted from its
    /// last bytes, and the target's request ends.
    @Test func anUploadThatStopsArriving_Is408_AfterTheBodyTimeout() throws {
        let backend = try UploadBackend(.reads)
        defer { backend.stop() }
        try withProxy(to: backend.port, bodyTimeout: 1) { server in
            let client = try RawClient(port: server.port, timeout: 30)
            client.send(Array(Self.upload(UpstreamConnectionReuseTests.largeBody(2 << 20))[..<(1 << 20)]))
            let started = Date()
            let response = try client.readResponse()
            #expect(response.status == 408 && response.text.contains("body stopped arriving"), "\(response.text)")
            #expect(Date().timeIntervalSince(started) < 10)
            try pollUntil { backend.closed == 1 }
        }
    }

    /// `Expect: 100-continue` (curl's for a large upload): the client hears `100 Continue` before it sends the body.
    @Test func aClientThatExpectsContinue_IsToldToGoOn() throws {
        let backend = try UploadBackend(.reads)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let body = UpstreamConnectionReuseTests.largeBody(2 * 1024 * 1024)
            let client = try RawClient(port: server.port, timeout: 30)
            client.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: \(body.count)\r\n\r\n")
            let interim = client.readSome().map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            client.send(body)
            let response = try client.readResponse()
            #expect(response.status == 200 && response.text.hasPrefix("\(body.count) "), "\(response.text)")
        }
    }

    /// The contract's own endpoints still read a body whole: over the limit it is refused, chunked it is answered (with
    /// `100 Continue` first when asked).
    @Test func aBodyForAnEndpointOfTheContract_IsReadWhole_AsBefore() throws {
        let backend = try UploadBackend(.reads)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let client = try RawClient(port: server.port, timeout: 30)
            client.send("POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(Self.limit + 1)\r\n\r\n")
            #expect(try client.readResponse().status == 413)
            let other = try RawClient(port: server.port, timeout: 30)
            other.send("POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
            #expect(try other.readResponse().status == 204)
            // Waiting for `100 Continue` first, as curl does.
            other.send("POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n")
            #expect(other.readSome().map { String(decoding: $0, as: UTF8.self) } == "HTTP/1.1 100 Continue\r\n\r\n")
            other.send("2\r\n{}\r\n0\r\n\r\n")
            #expect(try other.readResponse().status == 204)
        }
    }

    /// A backend that refuses at the head and closes: its answer reaches the client (not a 502 for the failed write).
    /// The connection closes after it when the rest of the body was not read by then; when it was (read and dropped),
    /// the connection may go on.
    @Test func aBackendsEarlyAnswer_IsRelayed() throws {
        let backend = try UploadBackend(.refusesAtTheHead)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let client = try RawClient(port: server.port, timeout: 30)
            let body = UpstreamConnectionReuseTests.largeBody(Self.limit + 1)
            // From another thread: the server stops reading once the backend is gone, so the send may not finish.
            let join = Self.sendAside(Self.upload(body), on: client)
            defer { join() }
            let response = try client.readResponse()
            #expect(response.status == 413 && response.text == "too big", "\(response.status) \(response.text)")
            if response.header("Connection") == "close" {
                #expect(client.readSome() == nil, "closed after the answer")
            } else {
                #expect(try client.request("POST", "/items", body: "{}").status == 204)
            }
        }
    }

    /// A target that answers before it has read the whole request, and would read the rest as the next request: the
    /// upload stops at the answer (RFC 9112 §9.3), the answer is relayed, and that connection is closed, not kept; the
    /// next request goes on the connection kept before.
    @Test func aConnectionTheTargetAnsweredBeforeTheBody_IsNotKept() throws {
        let backend = try UpstreamConnectionReuseTests.CountingBackend(.answersBeforeTheBody, receiveBuffer: 4096)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let client = try RawClient(port: server.port, timeout: 30)
            #expect(try client.get("/x").text == "ok")
            let uploader = try RawClient(port: server.port, timeout: 30)
            let join = Self.sendAside(Self.upload([UInt8](repeating: 97, count: 7 << 20)), on: uploader)
            defer { join() }
            #expect(try uploader.readResponse().text == "ok")
            try pollUntil { backend.closed == 1 }
            #expect(try client.get("/x").text == "ok")
        }
        #expect(backend.accepted == 2, "the first GET's connection, kept, and the upload's, closed")
    }

    /// The backend reads nothing after the head: the server stops reading the client once a bounded amount waits,
    /// so the client cannot push the whole body; once the backend reads, it all arrives.
    @Test func aBackendThatDoesNotRead_HoldsTheClientBack() throws {
        let backend = try UploadBackend(.stallsAfterTheHead)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let body = UpstreamConnectionReuseTests.largeBody(48 * 1024 * 1024)
            let wire = Self.upload(body)
            let client = try RawClient(port: server.port, timeout: 30)
            _ = fcntl(client.fd, F_SETFL, fcntl(client.fd, F_GETFL) | O_NONBLOCK)
            var sent = 0
            var quietSince = Date()
            // Pushes until nothing more is taken for half a second.
            while sent < wire.count && Date().timeIntervalSince(quietSince) < 0.5 {
                switch wire[sent...].withUnsafeBytes({ POSIX.write(client.fd, $0, nil) }) {
                case .bytes(let count):
                    sent += count
                    quietSince = Date()
                case .wouldBlock: Thread.sleep(forTimeInterval: 0.005)
                case .closed: Issue.record("closed after \(sent) bytes"); return
                }
            }
            #expect(sent < wire.count / 2, "the client pushed \(sent) of \(wire.count) bytes while the backend read none")
            backend.resume()
            while sent < wire.count {
                switch wire[sent...].withUnsafeBytes({ POSIX.write(client.fd, $0, nil) }) {
                case .bytes(let count): sent += count
                case .wouldBlock: _ = POSIX.wait(client.fd, forWriting: true, deadline: POSIX.monotonicNanoseconds() + 10_000_000_000)
                case .closed: Issue.record("closed after \(sent) bytes"); return
                }
            }
            _ = fcntl(client.fd, F_SETFL, fcntl(client.fd, F_GETFL) & ~O_NONBLOCK)
            let response = try client.readResponse()
            let sum = Checksum.of(body)
            let expected = "\(sum.count) \(sum.value) length"
            let whole = response.text == expected
            #expect(response.status == 200 && whole, "\(response.text)")
        }
    }

    /// A server that stops during an upload ends it at once: the client hears 503, and the backend's request ends (its
    /// connection closes) rather than waiting for the rest of the body.
    @Test func aServerStoppingDuringAnUpload_EndsIt() throws {
        let backend = try UploadBackend(.reads)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let client = try RawClient(port: server.port, timeout: 30)
            client.send(Array(Self.upload(UpstreamConnectionReuseTests.largeBody(4 << 20))[..<(2 << 20)]))
            try pollUntil { backend.accepted == 1 }
            let started = Date()
            server.stop()
            #expect(Date().timeIntervalSince(started) < 5, "stopped at once, not at the upload's timeout")
            let response = try client.readResponse()
            #expect(response.status == 503 && response.text.contains("stopping"), "\(response.text)")
            try pollUntil { backend.closed == 1 }
        }
    }

    /// A client that leaves halfway: the backend's request ends (its connection closes) rather than waiting for the
    /// rest, and the server goes on answering.
    @Test func aClientLeavingMidBody_EndsTheBackendsRequest() throws {
        let backend = try UploadBackend(.reads)
        defer { backend.stop() }
        try withProxy(to: backend.port) { server in
            let body = UpstreamConnectionReuseTests.largeBody(4 * 1024 * 1024)
            do {
                let client = try RawClient(port: server.port, timeout: 30)
                client.send(Array(Self.upload(body + body)[..<(body.count + 200)]))
            }
            try pollUntil(seconds: 10) { backend.closed == 1 }
            let next = try RawClient(port: server.port, timeout: 30)
            #expect(try next.request("POST", "/items", body: "{}").status == 204)
        }
    }
}

private extension Array where Element == Int {
    /// The sizes in turn, repeated, until they add up to at least `total`.
    func cycled(until total: Int) -> [Int] {
        var sizes: [Int] = []
        var sum = 0
        while sum < total {
            let size = self[sizes.count % count]
            sizes.append(size)
            sum += size
        }
        return sizes
    }
}
