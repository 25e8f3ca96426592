import ContractModel
import Foundation
import HTTPCore
import MockServer
import Testing
import TestSupport

/// Bodies sent at a pace: a bandwidth cap, or a dribble of pieces, written by the event loop's timers.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct PacedBodyTests {
    private static let body = String(repeating: "0123456789", count: 1_000)   // 10,000 bytes

    private static func contract(_ pace: String) -> String {
        """
        {"domain": "p", "endpoints": [{"id": "paced", "method": "GET", "path": "/paced", "response": {"contentType": "text/plain"},
          "scenarios": [{"name": "success", "status": 200, "body": "body.txt", "expect": "success", \(pace)}]}]}
        """
    }

    private func serve(_ pace: String, threads: Int = 2,
                       _ body: @escaping @Sendable (MockServer) throws -> Void) async throws {
        let folder = try ScratchContracts(contracts: [("p.json", Self.contract(pace))], fixtures: [("body.txt", Self.body)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures, configure: { $0.threads = threads }) { server in
            try await offThePool { try body(server) }
        }
    }

    /// Reads a response of `Content-Length` bytes (or chunked, to the last chunk), noting when each read came.
    private static func timedRead(_ client: RawClient) -> (text: String, reads: [TimeInterval]) {
        let started = Date()
        var bytes: [UInt8] = [], reads: [TimeInterval] = []
        while let part = client.readSome() {
            bytes += part
            reads.append(Date().timeIntervalSince(started))
            let text = String(decoding: bytes, as: UTF8.self)
            if let length = RawResponse(parsing: bytes).map({ $0.body.count }), length == 10_000 { break }
            if text.hasSuffix("0\r\n\r\n") { break }
        }
        return (String(decoding: bytes, as: UTF8.self), reads)
    }

    @Test func dribble_SendsThePiecesOverTheTime_WithContentLength_AndTheConnectionStaysUsable() async throws {
        try await serve(#""dribble": {"pieces": 5, "overMs": 400}"#) { server in
            let client = try RawClient(port: server.port)
            client.send("GET /paced HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let (text, reads) = Self.timedRead(client)
            #expect(text.contains("Content-Length: 10000\r\n") && text.hasSuffix(Self.body))
            #expect(reads.count >= 4, "the body came in \(reads.count) reads: \(reads)")
            let span = (reads.last ?? 0) - (reads.first ?? 0)
            #expect(span >= 0.25 && span < 3, "the pieces spread over \(span) s, for 400 ms asked")
            #expect(try client.get("/paced").status == 200, "the connection is reused after a paced body")
        }
    }

    @Test func dribble_Chunked_IsChunkedCoding() async throws {
        try await serve(#""dribble": {"pieces": 3, "overMs": 100, "chunked": true}"#) { server in
            let client = try RawClient(port: server.port)
            client.send("GET /paced HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let (text, _) = Self.timedRead(client)
            #expect(text.contains("Transfer-Encoding: chunked\r\n") && !text.contains("Content-Length"))
            #expect(text.hasSuffix("\r\n0\r\n\r\n"))
        }
    }

    /// A paced reply that ends at once reads the requests pipelined behind it from within; one of them whose body
    /// comes later is still answered as itself. (When the parser left that request's head in storage the
    /// connection then wrote over, its body went to the paced request's: a second `GET /paced`, with a body.)
    @Test func pipelinedRequestBehindAPacedReply_GetsItsBody_WhenTheBodyComesLater() async throws {
        let contract = """
            {"domain": "p", "endpoints": [
              {"id": "paced", "method": "GET", "path": "/paced", "response": {"contentType": "text/plain"},
               "scenarios": [{"name": "success", "status": 200, "body": "body.txt", "expect": "success",
                              "dribble": {"pieces": 1, "overMs": 0}}]},
              {"id": "upload", "method": "POST", "path": "/upload", "response": {"contentType": "text/plain"},
               "scenarios": [{"name": "stored", "status": 201, "expect": "success"}]}]}
            """
        let folder = try ScratchContracts(contracts: [("p.json", contract)], fixtures: [("body.txt", "123456789")])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            try await offThePool {
                let client = try RawClient(port: server.port)
                client.send("GET /paced HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                            + "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\n")
                #expect(try client.readResponse().text == "123456789")
                Thread.sleep(forTimeInterval: 0.1)
                client.send("hello")
                #expect(try client.readResponse().status == 201)
                let last = try #require(server.journal.entries().last)
                #expect(last.method == "POST" && last.target == "/upload" && last.bodyText == "hello", "\(last)")
            }
        }
    }

    /// Exactly the pieces asked for, however the body divides; and the next paced reply on the same
    /// connection starts at once, not on the last one's pace. The pieces are 0.8 s apart, so that "at once" has
    /// room under load: under ThreadSanitizer in CI, with 0.4 s between pieces, a first piece was read 0.41 s in.
    @Test func dribble_SendsEveryPiece_AndTheNextReplyStartsAtOnce() async throws {
        let folder = try ScratchContracts(contracts: [("p.json", Self.contract(#""dribble": {"pieces": 4, "overMs": 2400}"#))],
                                          fixtures: [("body.txt", "123456789")])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            try await offThePool {
                let client = try RawClient(port: server.port)
                for round in 0..<2 {
                    let started = Date()
                    client.send("GET /paced HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    var bytes: [UInt8] = [], reads: [TimeInterval] = []
                    while RawResponse(parsing: bytes) == nil, let part = client.readSome() {
                        bytes += part
                        reads.append(Date().timeIntervalSince(started))
                    }
                    #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\r\n\r\n123456789"))
                    #expect(reads.count >= 4, "round \(round): \(reads)")
                    #expect((reads.first ?? 9) < 0.6, "round \(round): the first piece at once, not after \(reads.first ?? 9) s")
                    #expect((reads.last ?? 0) >= 2.0, "round \(round): the last piece 2.4 s in, not \(reads.last ?? 0) s")
                }
            }
        }
    }

    /// A server that stops mid-dribble sends the rest of the body at once, not a short one.
    @Test func stoppingTheServer_MidDribble_SendsTheWholeBody() async throws {
        let folder = try ScratchContracts(contracts: [("p.json", Self.contract(#""dribble": {"pieces": 10, "overMs": 20000}"#))],
                                          fixtures: [("body.txt", Self.body)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            try await offThePool {
                let client = try RawClient(port: server.port)
                client.send("GET /paced HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = client.readSome()
                server.stop()
                let rest = client.readToEnd().bytes
                let text = String(decoding: rest, as: UTF8.self)
                #expect(text.hasSuffix("0123456789"), "\(rest.count) more bytes")
            }
        }
    }

    /// 10,000 bytes at 20,000 bytes a second: about half a second, in parts of 1,000 bytes.
    @Test func bandwidth_CapsTheRate() async throws {
        try await serve(#""bandwidth": "20000""#) { server in
            let client = try RawClient(port: server.port)
            let started = Date()
            let response = try client.get("/paced")
            let took = Date().timeIntervalSince(started)
            #expect(response.status == 200 && response.text == Self.body)
            #expect(took >= 0.4 && took < 5, "took \(took) s")
        }
    }

    /// A megabyte at 500,000 bytes a second: the throughput seen by the client, from the first body byte to
    /// the last, is within 10% of the cap.
    @Test func bandwidth_ThroughputOfAMegabyte_IsWithinTenPercentOfTheCap() async throws {
        let megabyte = String(repeating: "x", count: 1_000_000)
        let folder = try ScratchContracts(contracts: [("p.json", Self.contract(#""bandwidth": "500000""#))],
                                          fixtures: [("body.txt", megabyte)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            try await offThePool {
                let client = try RawClient(port: server.port)
                client.send("GET /paced HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                var received = 0, firstBody: Date?, headLength: Int?
                var head: [UInt8] = []
                while received < 1_000_000, let part = client.readSome() {
                    if headLength == nil {
                        head += part
                        guard let end = head.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { continue }
                        headLength = end
                        received = head.count - end
                    } else {
                        received += part.count
                    }
                    if firstBody == nil && received > 0 { firstBody = Date() }
                }
                let seconds = Date().timeIntervalSince(try #require(firstBody))
                let rate = Double(received) / seconds
                #expect(received == 1_000_000)
                #expect(abs(rate - 500_000) / 500_000 < 0.10, "\(Int(rate)) bytes a second for a cap of 500,000")
            }
        }
    }

    /// A preset carries its latency as time to the first byte; HEAD gets the head at once.
    @Test func preset_AddsItsLatency_AndHEADIsNotPaced() async throws {
        try await serve(#""bandwidth": "3g""#) { server in
            let client = try RawClient(port: server.port)
            #expect(try client.get("/paced").text == Self.body)
            #expect(try server.journalEntries().last?.delayMs == 100)
            let started = Date()
            client.send("HEAD /paced HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try #require(client.readSome().flatMap { RawResponse(parsing: $0, bodyless: true) })
            #expect(head.status == 200 && head.header("Content-Length") == "10000")
            #expect(Date().timeIntervalSince(started) < 1)
        }
    }

    /// A hundred throttled downloads of a quarter of a second each, on one event-loop thread: together
    /// they take about as long as one, since no thread sleeps for any of them.
    @Test func manyThrottledConnections_ShareOneThread() async throws {
        try await serve(#""bandwidth": "40000""#, threads: 1) { server in
            let clients = try (0..<100).map { _ in try RawClient(port: server.port) }
            let started = Date()
            for client in clients { client.send("GET /paced HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
            for client in clients { #expect(try client.readResponse().body.count == 10_000) }
            let took = Date().timeIntervalSince(started)
            #expect(took >= 0.1 && took < 10, "100 downloads of 0.25 s took \(took) s (one after another: 25 s)")
        }
    }

    @Test func badPaces_AreLoadErrors() throws {
        func problems(_ pace: String) throws -> String {
            let folder = try ScratchContracts(contracts: [("p.json", Self.contract(pace))], fixtures: [("body.txt", "x")])
            do {
                _ = try MockServer(configuration: .init(port: 0, contractsDirectory: folder.contracts, fixturesDirectory: folder.fixtures))
                return ""
            } catch {
                return error.problems.map { "\($0.path): \($0.reason)" }.joined(separator: " | ")
            }
        }
        #expect(try problems(#""bandwidth": "5g""#).contains("\"5g\" is not a bandwidth: one of edge, 3g, lte, wifi"))
        #expect(try problems(#""dribble": {"pieces": 3}"#).contains("dribble.overMs: is required"))
        #expect(try problems(#""bandwidth": "3g", "dribble": {"pieces": 2, "overMs": 10}"#).contains("has both"))
        #expect(Bandwidth(text: "wifi") == Bandwidth(bytesPerSecond: 3_932_160, latencyMs: 2))
    }
}
