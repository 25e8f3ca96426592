import Foundation
import HTTPCore
import TestSupport
import Testing

/// `Reply.Action.later`: a reply another thread completes, carried out on the connection's event loop.
@Suite(.timeLimit(.minutes(2)))
struct PendingReplyTests {
    /// Answers `/later` with a pending reply it keeps for the test to complete, anything else at once.
    private final class LaterResponder: HTTPResponder {
        let timeout: UInt64
        let waiting = Locked<[PendingReply]>([])

        init(timeoutNanoseconds: UInt64 = 30_000_000_000) { timeout = timeoutNanoseconds }

        func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply {
            guard request.path == "/later" else {
                return .respond(HTTPResponse(status: .ok, body: Array("now \(request.path)".utf8)))
            }
            let pending = PendingReply(timeoutNanoseconds: timeout)
            waiting.withValue { $0.append(pending) }
            return Reply(.later(pending))
        }

        func reject(_ status: HTTPStatus, reason: String) -> Reply {
            .respond(HTTPResponse(status: status, body: Array(reason.utf8)))
        }

        func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {}

        var first: PendingReply? { waiting.current.first }
    }

    /// Runs `body` with a server of `responder`, off the cooperative pool: the body blocks on sockets.
    private func withServer(
        _ responder: LaterResponder,
        _ body: @escaping @Sendable (HTTPServer) throws -> Void
    ) async throws {
        _ = TestProcess.descriptorLimit
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1, io: nil), responder: responder)
        try server.start()
        defer { server.stop() }
        try await offThePool { try body(server) }
    }

    /// A producer can answer before the responder adds its fields (CORS, rate limits) to the pending reply, as a
    /// fast local backend does: the fields still reach the response.
    @Test func fieldsAdded_AfterTheReplyCameAlready_AreSent() async throws {
        final class EarlyResponder: HTTPResponder {
            func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply {
                let pending = PendingReply(timeoutNanoseconds: 30_000_000_000)
                pending.complete(.respond(HTTPResponse(status: .ok, body: Array("early".utf8))))
                var reply = Reply(.later(pending))
                reply.addFields([("X-Added", "after")])
                return reply
            }
            func reject(_ status: HTTPStatus, reason: String) -> Reply {
                .respond(HTTPResponse(status: status, body: Array(reason.utf8)))
            }
            func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {}
        }
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1, io: nil), responder: EarlyResponder())
        try server.start()
        defer { server.stop() }
        try await offThePool {
            let client = try RawClient(port: server.port)
            client.send("GET /early HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.text == "early" && response.header("X-Added") == "after")
        }
    }

    @Test func laterReply_IsSentOnceCompleted_AndPipelinedRequestsWaitInOrder() async throws {
        let responder = LaterResponder()
        try await withServer(responder) { server in
            // GIVEN two pipelined requests, the first answered later
            let client = try RawClient(port: server.port)
            client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n")
            try pollUntil { responder.first != nil }
            // THEN nothing is answered while the first waits, the second request included
            #expect(client.isOpenAndSilent)
            // WHEN another thread completes it
            let pending = try #require(responder.first)
            #expect(pending.complete(.respond(HTTPResponse(status: .ok, body: Array("later".utf8)))))
            // THEN both answers come, in order
            let first = try client.readResponse(), second = try client.readResponse()
            #expect(first.status == 200 && first.text == "later")
            #expect(second.status == 200 && second.text == "now /next")
        }
    }

    @Test func laterReply_WhoseClientLeft_IsDropped_AndTheServerKeepsServing() async throws {
        let responder = LaterResponder()
        try await withServer(responder) { server in
            // GIVEN a client that leaves while its reply is pending
            do {
                let client = try RawClient(port: server.port)
                client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n")
                try pollUntil { responder.first != nil }
            }
            let pending = try #require(responder.first)
            try pollUntil { pending.isCancelled }
            // WHEN the upstream answers after all
            #expect(!pending.complete(.respond(HTTPResponse(status: .ok))))
            // THEN the server still answers others
            let other = try RawClient(port: server.port)
            other.send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try other.readResponse().text == "now /other")
        }
    }

    @Test func laterReply_NeverCompleted_IsAnswered504AfterItsTimeout() async throws {
        let responder = LaterResponder(timeoutNanoseconds: 200_000_000)
        try await withServer(responder) { server in
            let client = try RawClient(port: server.port)
            client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().status == 504)
            #expect(responder.first?.isCancelled == true)
        }
    }

    @Test func serverStop_WhileAReplyIsPending_AnswersAndStopsWithoutWaitingForIt() async throws {
        let responder = LaterResponder()
        _ = TestProcess.descriptorLimit
        try await offThePool {
            let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1, io: nil),
                                    responder: responder)
            try server.start()
            let client = try RawClient(port: server.port)
            client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n")
            try pollUntil { responder.first != nil }
            // WHEN the server stops with the reply still pending (its timeout is 30 s, the shutdown grace 5 s)
            server.stop()
            // THEN the client was answered rather than cut off at the end of the grace, and the reply is dropped
            #expect(try client.readResponse().status == 503)
            #expect(responder.first?.isCancelled == true)
        }
    }
}
