import Foundation
import HTTPCore
import TestSupport
import Testing

/// A stream whose source always has more yields its loop's turn after a few parts: another client on the same loop
/// is answered while the stream runs on, however fast its reader takes it.
@Suite(.timeLimit(.minutes(2)))
struct StreamTurnTests {
    /// `/endless` streams for ever, from a producer thread that sends as fast as the stream takes it (as the proxy's
    /// relay of a download does); anything else is answered at once.
    private final class Responder: HTTPResponder {
        func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply {
            guard request.path == "/endless" else { return .respond(HTTPResponse(status: .noContent)) }
            let stream = ReplyStream(limit: 256 * 1024)
            Thread.detachNewThread {
                let part = [UInt8](repeating: 0x61, count: 4096)
                while stream.sendWaiting(part) {}
            }
            return Reply(.stream(HTTPResponse(status: .ok), stream))
        }
        func reject(_ status: HTTPStatus, reason: String) -> Reply { .respond(HTTPResponse(status: status)) }
        func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {}
    }

    @Test func anEndlessStream_LetsAnotherClientOnItsLoopBeAnswered() async throws {
        _ = TestProcess.descriptorLimit
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1, io: nil), responder: Responder())
        try server.start()
        defer { server.stop() }
        try await offThePool {
            // Drained as fast as it comes, on a thread of its own, so that the stream's socket never fills and never
            // makes it wait.
            let received = Locked(0)
            let draining = Locked(true)
            let port = server.port
            Thread.detachNewThread {
                guard let reader = try? RawClient(port: port, timeout: 10) else { return }
                reader.send("GET /endless HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                while draining.current, let bytes = reader.readSome() { received.withValue { $0 += bytes.count } }
            }
            defer { draining.withValue { $0 = false } }
            try pollUntil(seconds: 10) { received.current > 1 << 20 }
            let other = try RawClient(port: server.port, timeout: 5)
            let started = Date()
            #expect(try other.get("/ping").status == 204)
            #expect(Date().timeIntervalSince(started) < 2)
        }
    }
}
