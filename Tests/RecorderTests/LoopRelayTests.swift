import Foundation
import HTTPCore
import MockServer
@testable import Recorder
import Testing
import TestSupport

/// `--proxy` relays on kept connections from the event loop that took the request, over real sockets: a run of
/// requests on one connection, a stale kept connection sent again only for a method that may go again, a silent target
/// failed at the timeout, and a body that streams on handed to a pool thread whole. (A connection the target answers
/// before the request is written is tested with uploads, in UploadRelayTests: a body of 1 MiB or less, which the loop
/// relays, fits the sockets' buffers.)
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct LoopRelayTests {
    typealias Backend = UpstreamConnectionReuseTests.CountingBackend

    /// The server (one event loop) relaying everything to `backend`, and a client of it.
    private func withProxy(to backend: Backend, timeout: Double = 5,
                           _ body: (UpstreamProxy, RawClient) throws -> Void) throws {
        try ProxyHarness.withProxy(to: backend.port, timeout: timeout) { server, proxy in
            try body(proxy, try RawClient(port: server.port, timeout: 20))
        }
    }

    @Test func aRunOfRequests_GoesOnOneKeptConnection() throws {
        let backend = try Backend(.keepAlive)
        defer { backend.stop() }
        try withProxy(to: backend) { _, client in
            for _ in 0..<20 {
                let response = try client.get("/x")
                #expect(response.status == 200 && response.text == "ok")
                #expect(response.header("Via") == "1.1 mock-server")
            }
        }
        #expect(backend.accepted == 1, "the first request made the connection; the loop's relay carried the rest on it")
    }

    /// RFC 9110 §9.2.2: a kept connection the target closes at the next request is sent again on a new one for a GET,
    /// and fails a POST with a 502, as the POST may have reached the target.
    @Test func aKeptConnectionClosedAtTheRequest_IsRetriedOnlyForWhatMayGoAgain() throws {
        let backend = try Backend(.closeAtTheSecond)
        defer { backend.stop() }
        try withProxy(to: backend) { _, client in
            #expect(try client.get("/x").text == "ok")
            #expect(try client.get("/x").text == "ok", "sent again on a new connection")
            #expect(backend.accepted == 2)
            let refused = try client.request("POST", "/x", body: "{}")
            #expect(refused.status == 502 && refused.text.contains("connection reset"), "\(refused.text)")
        }
    }

    /// Kept connections stay watched: one the target closes while it is idle is dropped as it closes, so even a POST,
    /// which is never sent twice, goes on a new connection rather than failing on the closed one.
    @Test func aKeptConnectionClosedWhileIdle_IsDropped_EvenAPostGetsItsAnswer() throws {
        let backend = try Backend(.closeAfterTwo)
        defer { backend.stop() }
        try withProxy(to: backend) { _, client in
            // The first makes the connection, the second goes on it from the loop, which keeps it; the target closes it.
            for number in 1...3 {
                let response = try client.request("POST", "/x", body: "{}")
                #expect(response.status == 200 && response.text == "ok", "\(response.text)")
                if number == 2 { try pollUntil { backend.closed == 1 } }
            }
        }
        #expect(backend.accepted == 2)
    }

    /// A connection kept in the turn its response came may already hold the target's close (it answered, then closed
    /// without a word): a request pipelined behind that response, handled in the same turn, does not go on it, so even
    /// a POST gets its answer. A close that arrives after the check is the race every proxy has (the POST then gets a
    /// 502, as the target may have seen it), which a loaded machine can lose: so the scenario is tried a few times, and
    /// one answer suffices. Without the check, every try fails: the POST always meets the closing connection.
    @Test func aConnectionKeptThisTurn_ThatTheTargetClosed_IsNotUsed() throws {
        var answers: [String] = []
        for _ in 0..<5 where !answers.contains("200 ok") {
            let backend = try Backend(.closeAfterTwo)
            defer { backend.stop() }
            try withProxy(to: backend) { _, client in
                // The first makes the connection, which the loop's relay takes for the second; the target answers the
                // second and closes, and the POST behind it in the same write is relayed as the second's answer is sent.
                #expect(try client.get("/x").text == "ok")
                client.send("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}")
                #expect(try client.readResponse().text == "ok")
                let post = try client.readResponse()
                answers.append("\(post.status) \(post.text)")
            }
        }
        #expect(answers.contains("200 ok"), "\(answers)")
    }

    @Test func aTargetSilentOnAKeptConnection_Is502AtTheTimeout() throws {
        let backend = try Backend(.silentAfterTheFirst)
        defer { backend.stop() }
        try withProxy(to: backend, timeout: 1) { _, client in
            #expect(try client.get("/x").text == "ok")
            let started = Date()
            let response = try client.get("/x")
            #expect(response.status == 502 && response.text.contains("timeout"), "\(response.text)")
            #expect(Date().timeIntervalSince(started) >= 0.9)
        }
    }

    /// A body over the streaming threshold goes on from a pool thread, starting with what the loop read.
    @Test func aStreamedBody_IsHandedOff_AndArrivesWhole() throws {
        let size = 3 << 19
        let expected = UpstreamConnectionReuseTests.largeBody(size)
        let backend = try Backend(.large(size))
        defer { backend.stop() }
        // A generous timeout: under ThreadSanitizer, a body of this size moves slowly.
        try withProxy(to: backend, timeout: 30) { proxy, client in
            for _ in 0..<2 {
                let response = try client.get("/x")
                #expect(response.status == 200 && response.body.count == size,
                        "\(response.statusLine): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
                // Compared outside the expectation: a failing one would diff the two bodies, megabytes each.
                let intact = response.body == expected
                #expect(intact)
                // The thread that relayed the body keeps the connection once it has read the end, which may come just
                // after the client has it all (long after, under a sanitizer): the next request goes once it is kept.
                try pollUntil(seconds: 20) { proxy.idleConnections == 1 }
            }
        }
        #expect(backend.accepted == 1, "the second body went on the first's connection, through the loop's hand-off")
    }
}
