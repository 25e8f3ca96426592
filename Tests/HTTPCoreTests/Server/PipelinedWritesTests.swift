import HTTPCore
import TestSupport
import Testing

/// Responses to pipelined requests are queued while more requests wait and written together; the queue's
/// limit still lets the connection go on once the socket takes what was queued.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct PipelinedWritesTests {
    /// Answers every request with `size` bytes.
    private final class SizedResponder: HTTPResponder {
        let size: Int
        init(size: Int) { self.size = size }
        func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply {
            .respond(HTTPResponse(status: .ok, body: [UInt8](repeating: UInt8(ascii: "x"), count: size)))
        }
        func reject(_ status: HTTPStatus, reason: String) -> Reply { .respond(HTTPResponse(status: status)) }
        func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {}
    }

    @Test func pipelinedResponses_PastTheQueueLimit_AreAllAnswered_WithoutMoreFromTheClient() throws {
        // GIVEN a server that stops reading requests past 64 KiB of queued output, and responses of 40,000 bytes
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 1, io: nil)
        configuration.settings.maxQueuedOutput = 64 * 1024
        configuration.settings.headerTimeout = 30_000_000_000
        let server = HTTPServer(configuration: configuration, responder: SizedResponder(size: 40_000))
        try server.start()
        defer { server.stop() }
        _ = TestProcess.descriptorLimit
        // WHEN five requests arrive in one write, the last asking to close
        let client = try RawClient(port: server.port, timeout: 10)
        client.send(String(repeating: "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", count: 4)
                    + "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        // THEN all five are answered and the connection closes, with nothing more sent by the client
        let (bytes, end) = client.readToEnd()
        #expect(end == .closed)
        #expect(String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 5)
    }
}
