import Foundation
import MockServer
import Testing
import TestSupport

/// Connection handling: keep-alive, pipelining, faults as a raw client sees them, limits, timeouts,
/// concurrency and shutdown.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ConnectionTests {
    @Test func keepAlive_ServesManyRequestsOnOneConnection() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            for id in [1, 2, 3, 1, 2, 3] {
                let response = try client.get("/api/products/\(id)")
                #expect(response.status == 200 && response.text.contains("\"id\": \(id)"))
            }
        }
    }

    @Test func pipelinedRequests_AreAnsweredInOrder_EvenAfterADelayedOne() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: slow\r\n\r\n"
                        + "GET /api/products/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                        + "GET /healthChecker HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            let (bytes, end) = client.readToEnd()
            #expect(end == .closed)
            let text = String(decoding: bytes, as: UTF8.self)
            let scenarios = text.components(separatedBy: "\r\n").filter { $0.hasPrefix("X-Mock-Scenario") }
            #expect(scenarios == ["X-Mock-Scenario: slow", "X-Mock-Scenario: success", "X-Mock-Scenario: success"])
            #expect(text.contains("\"id\": 2"))
            #expect(text.hasSuffix("Connection: close\r\n\r\nOK"))
        }
    }

    @Test func pipelinedRequests_BeforeAReset_AreAnswered_BeforeTheConnectionIsReset() async throws {
        // Pipelined responses are queued while more requests wait; a reset must not drop the ones queued before it.
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n"
                        + "GET /api/products/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                        + "GET /api/products?page_no=1&items_per_page=20 HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: reset\r\n\r\n")
            let (bytes, end) = client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(end == .reset)
            #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 2)
            #expect(text.contains("\"id\": 2"))
        }
    }

    @Test func longPipeline_IsAnsweredInFull_WithoutExhaustingTheStack() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port, timeout: 20)
            let count = 5_000
            client.send(String(repeating: "GET /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n", count: count - 1)
                        + "GET /healthChecker HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            let (bytes, end) = client.readToEnd()
            #expect(end == .closed)
            #expect(String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 200 OK").count - 1 == count)
        }
    }

    @Test func http10_IsAnsweredAndClosed() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /healthChecker HTTP/1.0\r\n\r\n")
            let (bytes, end) = client.readToEnd()
            #expect(end == .closed)
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    @Test func chunkedRequestBody_IsAccepted_AndExpectContinueIsHonoured() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("PUT /api/v1/question HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer t\r\n"
                        + "Content-Type: application/json\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n")
            var interim = [UInt8](repeating: 0, count: 25)
            #expect(recv(client.fd, &interim, interim.count, Int32(MSG_WAITALL)) == 25)
            #expect(String(decoding: interim, as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
            client.send("a\r\n{\"index\":3\r\n11\r\n,\"myAnswer\":\"ok\"}\r\n0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(server.journal.entries().last?.bodySize == 27)
            #expect(server.journal.entries().last?.violations == [])
        }
    }

    @Test func connectionReset_IsSeenAsRST() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /api/products?page_no=1&items_per_page=2 HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: reset\r\n\r\n")
            let (bytes, end) = client.readToEnd()
            #expect(bytes.isEmpty && end == .reset)
        }
    }

    @Test func emptyResponse_ClosesWithoutAByte() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let body = #"{"index":1}"#
            client.send("POST /api/v1/question/press-for-answer HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer t\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nX-Mock-Scenario: empty\r\n\r\n"
                        + body)
            let (bytes, end) = client.readToEnd()
            #expect(bytes.isEmpty && end == .closed)
        }
    }

    @Test func malformedResponse_IsNotHTTP() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: malformed\r\n\r\n")
            let (bytes, end) = client.readToEnd()
            #expect(end == .closed)
            #expect(!bytes.isEmpty && !String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/"))
        }
    }

    @Test func truncatedBody_SendsLessThanContentLength() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /api/products/1 HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: truncated\r\n\r\n")
            let (bytes, end) = client.readToEnd()
            #expect(end == .closed)
            let text = String(decoding: bytes, as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            let length = parts[0].components(separatedBy: "\r\n").first { $0.hasPrefix("Content-Length: ") }
                .flatMap { Int($0.dropFirst(16)) }
            #expect(try #require(length) > parts[1].utf8.count)
        }
    }

    /// The bundled `hang` scenario (Contracts/health.json) holds the request for 3 s, then closes.
    @Test func noResponse_HoldsTheConnection_ThenCloses_WithoutBlockingOthers() async throws {
        try await withServer { server in
            // No suspension point until the held connection is checked: a test task resumed late on a busy
            // cooperative pool could otherwise find the hold already over.
            // GIVEN a request the server holds
            let held = try RawClient(port: server.port, timeout: 15)
            let sent = ContinuousClock.now
            held.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: hang\r\n\r\n")
            let deadline = sent + .seconds(2)
            while !server.journal.entries().contains(where: { $0.scenario == "hang" }) && .now < deadline {
                usleep(1_000)
            }
            // WHEN another client asks meanwhile
            let other = try RawClient(port: server.port).get("/healthChecker")
            // THEN it is answered while the first is held, silent and open
            #expect(other.status == 200)
            #expect(held.isOpenAndSilent, "the other client was answered only after the hold")
            let scenarios = server.journal.entries().map(\.scenario)
            #expect(scenarios == ["hang", "success"], "the held request was in hand before the other arrived")
            // AND once the hold is over the server closes the held connection, having sent nothing
            let (bytes, end) = held.readToEnd()
            let closed = ContinuousClock.now
            #expect(bytes.isEmpty, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(end == .closed, "expected a close within 15 s, got \(end)")
            #expect(closed - sent >= .milliseconds(2_900), "closed after \(closed - sent), before the hold ended")
        }
    }

    @Test func delay_PostponesTheResponse() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let start = Date()
            #expect(try client.get("/healthChecker", headers: ["X-Mock-Scenario": "slow"]).status == 200)
            #expect(Date().timeIntervalSince(start) >= 0.75)
        }
    }

    @Test func oversizedBody_Is413_AndConnectionCloses() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("PUT /api/v1/question HTTP/1.1\r\nHost: a\r\nContent-Length: 9000000\r\n\r\n")
            let (bytes, end) = client.readToEnd()
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
            #expect(end == .closed)
        }
    }

    @Test func garbage_Is400_AndTheServerKeepsServing() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send([0x16, 0x03, 0x01, 0x00, 0xFF, 0x0D, 0x0A, 0x0D, 0x0A])
            let (bytes, end) = client.readToEnd()
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(end == .closed)
            #expect(try RawClient(port: server.port).get("/healthChecker").status == 200)
        }
    }

    @Test func slowHeader_TimesOutWith408() async throws {
        try await withServer(configure: { $0.headerTimeout = 0.3 }) { server in
            let client = try RawClient(port: server.port)
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\n")
            let (bytes, end) = client.readToEnd()
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
            #expect(end == .closed)
        }
    }

    @Test func slowClient_DoesNotBlockOthers() async throws {
        try await withServer { server in
            let slow = try RawClient(port: server.port)
            slow.send("GET /api/products/1 HTTP/1.1\r\nHo")
            let clients = try (0..<3).map { _ in try RawClient(port: server.port) }
            for client in clients { #expect(try client.get("/healthChecker").status == 200) }
            slow.send("st: a\r\n\r\n")
            #expect(try slow.readResponse().status == 200)
        }
    }

    /// Every client connects and sends before any response is read, so the server must hold all of
    /// them at once (a task group of blocking clients ran about two at a time, one per core).
    @Test func twoHundredConcurrentConnections_AreAllServed() async throws {
        try await withServer { server in
            let count = 200
            // GIVEN 200 connections, each with its request sent and no response read
            let clients = try (0..<count).map { _ in try RawClient(port: server.port) }
            for (index, client) in clients.enumerated() {
                client.send("GET /api/products/\(index % 3 + 1) HTTP/1.1\r\nHost: a\r\n\r\n")
            }
            // WHEN the server has received all 200 requests
            try await waitUntil(seconds: 20) { server.journal.entries().count == count }
            // THEN each connection has its own answer
            for (index, client) in clients.enumerated() {
                let response = try client.readResponse()
                #expect(response.status == 200 && response.text.contains("\"id\": \(index % 3 + 1)"))
                #expect(response.header("Connection") == "keep-alive")
            }
            // AND each is still open for a second request: every connection was open on the server before
            // the 200th request arrived and is still open after it, so all 200 were open together.
            for client in clients { client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n") }
            for client in clients { #expect(try client.readResponse().text == "OK") }
            #expect(server.journal.entries().count == 2 * count)
        }
    }

    @Test func stop_FinishesInFlightResponse_ThenRefusesConnections() async throws {
        var configuration = MockServer.Configuration(port: 0, contractsDirectory: Repository.contracts,
                                                     fixturesDirectory: Repository.fixtures)
        configuration.threads = 1
        let server = try MockServer(configuration: configuration)
        try server.start()
        let port = server.port
        let client = try RawClient(port: port)
        client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: slow\r\n\r\n")
        let idle = try RawClient(port: port)
        #expect(try idle.get("/healthChecker").status == 200)
        // Wait until the slow request is in the journal, i.e. in flight, without sleeping blindly.
        try await waitUntil { server.journal.entries().contains { $0.scenario == "slow" } }
        server.stop()
        let response = try client.readResponse()
        #expect(response.status == 200 && response.header("Connection") == "close")
        #expect(idle.readToEnd().end == .closed)
        // The port is free once stopped, and another test's server may take it at once: what must hold
        // is that nothing reaches this server any more.
        let served = server.journal.entries().count
        if let late = try? RawClient(port: port, timeout: 1) {
            _ = try? late.get("/healthChecker")
        }
        #expect(server.journal.entries().count == served)
    }
}
