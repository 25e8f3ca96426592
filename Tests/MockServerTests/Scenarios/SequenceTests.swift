import Foundation
import MockServer
import Testing
import TestSupport

/// A sequence scenario plays its steps in turn, one per request, over real sockets.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct SequenceTests {
    @Test func flaky_FailsTwiceThenSucceeds_AndRepeatsTheLastStep() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let headers = [MockHeader.scenario: "flaky"]
            let statuses = try (0..<5).map { _ in try client.get("/healthChecker", headers: headers).status }
            #expect(statuses == [503, 503, 200, 200, 200])
            let last = try client.get("/healthChecker", headers: headers)
            #expect(last.header(MockHeader.scenario) == "success", "the response names the step played")
            let entries = try server.journalEntries(JournalQuery(endpoint: "healthCheck"))
            #expect(entries.map(\.scenario) == ["serverErr", "serverErr", "success", "success", "success", "success"])
            #expect(entries.map(\.scenarioSequence) == Array(repeating: "flaky", count: 6))
            #expect(entries.map(\.scenarioStep) == [1, 2, 3, 3, 3, 3])
        }
    }

    @Test func sequence_SetByTheAdminAPI_AndReset_StartsOver() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let set = try client.request("PUT", "/__mock/scenarios/healthCheck", body: #"{"scenario": "flaky"}"#)
            #expect(set.status == 200)
            #expect(try client.get("/healthChecker").status == 503)
            #expect(try client.request("DELETE", "/__mock/scenarios/healthCheck").status == 200)
            #expect(try client.get("/healthChecker").status == 200, "reset returns to the first scenario")
            #expect(server.setScenario("flaky", for: "healthCheck"))
            #expect(try client.get("/healthChecker").status == 503)
            #expect(try server.journalEntries(JournalQuery(limit: 1)).last?.scenarioStep == 1,
                    "a reset sequence starts from its first step")
        }
    }

    @Test func settingTheSequenceAgain_StartsItOver() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            #expect(server.setScenario("flaky", for: "healthCheck"))
            #expect(try (0..<3).map { _ in try client.get("/healthChecker").status } == [503, 503, 200])
            let again = try client.request("PUT", "/__mock/scenarios/healthCheck", body: #"{"scenario": "flaky"}"#)
            #expect(again.status == 200)
            #expect(try client.get("/healthChecker").status == 503)
            #expect(try server.journalEntries(JournalQuery(limit: 1)).last?.scenarioStep == 1)
        }
    }

    @Test func head_DoesNotUseUpAStep() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            #expect(server.setScenario("flaky", for: "healthCheck"))
            client.send("HEAD /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n")
            _ = client.readSome()
            #expect(try (0..<3).map { _ in try client.get("/healthChecker").status } == [503, 503, 200])
        }
    }

    @Test func startOver_WrapsAroundAfterTheLastStep() async throws {
        let folder = try ScratchContracts(contracts: [("loop.json", """
            {"domain": "loop", "endpoints": [{"id": "ping", "method": "GET", "path": "/ping", "scenarios": [
              {"name": "ok", "status": 200, "expect": "success"},
              {"name": "down", "status": 503, "expect": "serverErr"},
              {"name": "blink", "sequence": ["ok", "down"], "afterLast": "startOver"}]}]}
            """)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            let client = try RawClient(port: server.port)
            let statuses = try (0..<5).map { _ in try client.get("/ping", headers: [MockHeader.scenario: "blink"]).status }
            #expect(statuses == [200, 503, 200, 503, 200])
        }
    }

    @Test func refusedRequest_DoesNotAdvanceTheSequence() async throws {
        let folder = try ScratchContracts(contracts: [("strict.json", """
            {"domain": "strict", "endpoints": [{"id": "find", "method": "GET", "path": "/find",
              "request": {"query": {"q": "integer"}}, "scenarios": [
              {"name": "ok", "status": 200, "expect": "success"},
              {"name": "down", "status": 503, "expect": "serverErr"},
              {"name": "flaky", "sequence": ["down", "ok"]}]}]}
            """)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            let client = try RawClient(port: server.port)
            #expect(server.setScenario("flaky", for: "find"))
            let refused = try client.get("/find")
            #expect(refused.status == 400)
            #expect(refused.header(MockHeader.scenario) == "down", "a refusal names the step that is due")
            #expect(try client.get("/find?q=1").status == 503, "the refusal did not use up the first step")
            #expect(try client.get("/find?q=1").status == 200)
        }
    }
}
