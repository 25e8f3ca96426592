import ContractModel
import Foundation
import HTTPCore
import MockServer
import Testing
import TestSupport

/// Latency draws and rate limits, over real sockets.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct NetworkConditionTests {
    private static func contract(rateLimit: String = "", latency: String = "") -> String {
        """
        {"domain": "c", "endpoints": [{"id": "ping", "method": "GET", "path": "/ping" \(rateLimit.isEmpty ? "" : ", \"rateLimit\": \(rateLimit)"),
          "scenarios": [{"name": "success", "status": 200, "body": "ok.txt", "expect": "success" \(latency.isEmpty ? "" : ", \"latency\": \"\(latency)\"")},
                        {"name": "serverErr", "status": 503, "expect": "serverErr"}]}]}
        """
    }

    private func serve(_ contract: String, configure: (inout MockServer.Configuration) -> Void = { _ in },
                       _ body: @escaping @Sendable (MockServer, RawClient) throws -> Void) async throws {
        let folder = try ScratchContracts(contracts: [("c.json", contract)], fixtures: [("ok.txt", "OK")])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures, configure: configure) { server in
            try await offThePool { try body(server, try RawClient(port: server.port)) }
        }
    }

    @Test func rateLimit_PastTheBudget_Is429WithRetryAfter_PerSession() async throws {
        try await serve(Self.contract(rateLimit: #"{"limit": 3, "windowSeconds": 60}"#)) { _, client in
            for remaining in [2, 1, 0] {
                let allowed = try client.get("/ping")
                #expect(allowed.status == 200 && allowed.header("RateLimit-Remaining") == String(remaining))
                #expect(allowed.header("RateLimit-Limit") == "3" && allowed.header("X-RateLimit-Limit") == "3")
            }
            let refused = try client.get("/ping")
            #expect(refused.status == 429 && refused.text.contains("more than 3 requests in 60 s"))
            let retryAfter = try #require(refused.header("Retry-After").flatMap { Int($0) })
            #expect((59...60).contains(retryAfter) && refused.header("RateLimit-Remaining") == "0")
            let reset = try #require(refused.header("X-RateLimit-Reset").flatMap { Int($0) })
            #expect(abs(reset - Int(Date().timeIntervalSince1970) - 60) <= 2, "X-RateLimit-Reset is in epoch seconds")
            #expect(try client.get("/ping", headers: [MockHeader.session: "other"]).status == 200, "another session has its own budget")
            #expect(try client.get("/ping", headers: [MockHeader.scenario: "serverErr"]).status == 429, "the budget comes first")
        }
    }

    @Test func rateLimit_Global_DateForm_AndTheWindowEnds() async throws {
        try await serve(Self.contract(rateLimit: #"{"limit": 1, "windowSeconds": 1, "per": "global", "retryAfter": "date"}"#)) { server, client in
            #expect(try client.get("/ping").status == 200)
            let refused = try client.get("/ping", headers: [MockHeader.session: "other"])
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After")?.hasSuffix(" GMT") == true, "\(refused.header("Retry-After") ?? "-")")
            let entry = try #require(server.journalEntries().last)
            #expect(entry.status == 429 && entry.reason?.contains("rate limit") == true)
            Thread.sleep(forTimeInterval: 1.1)
            #expect(try client.get("/ping").status == 200, "a new window")
        }
    }

    @Test func scenarioLatency_IsWaited_AndJournaled() async throws {
        try await serve(Self.contract(latency: "100-150")) { server, client in
            let started = Date()
            #expect(try client.get("/ping").status == 200)
            #expect(Date().timeIntervalSince(started) >= 0.1)
            let waited = try #require(server.journalEntries().last?.delayMs)
            #expect((100...150).contains(waited))
        }
    }

    /// The same seed gives the same waits; the log-normal draws centre on their median.
    @Test func serverLatency_Seeded_Replays() async throws {
        func draws(seed: UInt64) async throws -> [Int] {
            let waits = Locked([Int]())
            try await serve(Self.contract(), configure: { $0.latency = Latency(text: "lognormal:4:0.5"); $0.seed = seed }) { server, client in
                for _ in 0..<41 { _ = try client.get("/ping") }
                let journaled = try server.journalEntries().map { $0.delayMs ?? 0 }
                waits.withValue { $0 = journaled }
            }
            return waits.withValue { $0 }
        }
        let first = try await draws(seed: 7), again = try await draws(seed: 7), other = try await draws(seed: 8)
        #expect(first == again && first != other)
        #expect((2...6).contains(first.sorted()[20]), "median of 41 draws: \(first.sorted()[20]) ms")
    }

    /// The server's latency and bandwidth reach a resource's store too.
    @Test func serverConditions_ApplyToResources() async throws {
        let contract = #"{"domain": "r", "resources": [{"id": "notes", "path": "/notes", "fields": {"text": "string"}}]}"#
        try await serve(contract, configure: { $0.latency = Latency(text: "120"); $0.bandwidth = Bandwidth(text: "lte") }) { server, client throws in
            let started = Date()
            #expect(try client.get("/notes").text == "[]")
            #expect(Date().timeIntervalSince(started) >= 0.14)
            #expect(try server.journalEntries().last?.delayMs == 140, "120 ms of latency and lte's 20 ms")
        }
    }

    /// 1,000 requests on a log-normal latency (median 4 ms, sigma 0.5), seeded: the waits the journal records
    /// have the distribution's median and 90th percentile (4 × e^(0.5 × 1.2816) = 7.6 ms), and the requests
    /// took at least that long.
    @Test func lognormalLatency_MedianAndNinetiethPercentile_Over1000Requests() async throws {
        try await serve(Self.contract(latency: "lognormal:4:0.5"), configure: { $0.seed = 11 }) { server, client in
            let started = Date()
            for _ in 0..<1_000 { _ = try client.get("/ping") }
            let elapsed = Date().timeIntervalSince(started)
            let waits = try server.journalEntries(JournalQuery(limit: 1_000)).map { $0.delayMs ?? 0 }.sorted()
            #expect(waits.count == 1_000)
            // Whole milliseconds, rounded down: the median's 4.0 ms is 3 or 4.
            #expect((3...4).contains(waits[499]), "median \(waits[499]) ms")
            #expect((6...8).contains(waits[899]), "90th percentile \(waits[899]) ms")
            #expect(elapsed >= Double(waits.reduce(0, +)) / 1_000, "the waits were waited")
        }
    }

    @Test func latencyText_ParsesEachFormOrNothing() {
        #expect(Latency(text: "200") == .fixed(200))
        #expect(Latency(text: "100-500") == .uniform(100, 500))
        #expect(Latency(text: "lognormal:80:0.5") == .lognormal(median: 80, sigma: 0.5))
        for bad in ["", "-5", "500-100", "1-2-3", "lognormal:80", "lognormal:0:1", "fast", "70000"] {
            #expect(Latency(text: bad) == nil, "\(bad)")
        }
    }

    @Test func badConditions_AreLoadErrors() throws {
        let folder = try ScratchContracts(contracts: [("c.json", Self.contract(rateLimit: #"{"limit": 0, "per": "user"}"#, latency: "soon"))],
                                          fixtures: [("ok.txt", "OK")])
        do {
            _ = try MockServer(configuration: .init(port: 0, contractsDirectory: folder.contracts, fixturesDirectory: folder.fixtures))
            Issue.record("loaded")
        } catch {
            let text = error.problems.map { "\($0.path): \($0.reason)" }.joined(separator: " | ")
            #expect(text.contains("$.endpoints[0].rateLimit.limit"), "\(text)")
            #expect(text.contains("$.endpoints[0].rateLimit.per: \"user\" is not one of session, global"))
            #expect(text.contains("$.endpoints[0].scenarios[0].latency: \"soon\" is not a latency"))
        }
    }
}
