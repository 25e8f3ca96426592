import Foundation
import MockServer
import Testing
import TestSupport

/// `X-Mock-Session` scopes every run-time change: overrides, states, sequence positions and counters.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct SessionTests {
    private let bearer = ["Authorization": "Bearer token"]

    @Test func overrideInOneSession_IsNotSeenByAnotherOrTheDefault() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let set = try client.request("PUT", "/__mock/scenarios/healthCheck?session=a", body: #"{"scenario": "serverErr"}"#)
            #expect(set.status == 200)
            #expect(try client.get("/healthChecker", headers: [MockHeader.session: "a"]).status == 503)
            #expect(try client.get("/healthChecker", headers: [MockHeader.session: "b"]).status == 200)
            #expect(try client.get("/healthChecker").status == 200)
            #expect(try client.get("/__mock/contracts?session=a").text.contains(#""active":"serverErr""#))
            #expect(!(try client.get("/__mock/contracts").text.contains(#""active":"serverErr""#)))
        }
    }

    @Test func statesAndSequences_ArePerSession() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let answer = try client.request("PUT", "/api/v1/question", headers: bearer.merging(
                [MockHeader.session: "a", "Content-Type": "application/json"]) { $1 },
                body: #"{"index": 3, "myAnswer": "here"}"#)
            #expect(answer.status == 200)
            let inA = try client.get("/api/v1/question/3", headers: bearer.merging([MockHeader.session: "a"]) { $1 })
            let inB = try client.get("/api/v1/question/3", headers: bearer.merging([MockHeader.session: "b"]) { $1 })
            #expect(inA.header(MockHeader.scenario) == "answered")
            #expect(inB.header(MockHeader.scenario) == "success")
            #expect(try client.get("/__mock/states?session=a").text.contains(#""state":"answered""#))
            #expect(try client.get("/__mock/states").text.contains(#""state":"open""#))

            let flaky = [MockHeader.scenario: "flaky"]
            #expect(try client.get("/healthChecker", headers: flaky.merging([MockHeader.session: "a"]) { $1 }).status == 503)
            #expect(try client.get("/healthChecker", headers: flaky.merging([MockHeader.session: "b"]) { $1 }).status == 503)
            #expect(try client.get("/healthChecker", headers: flaky.merging([MockHeader.session: "a"]) { $1 }).status == 503)
            #expect(try client.get("/healthChecker", headers: flaky.merging([MockHeader.session: "a"]) { $1 }).status == 200)
            #expect(try client.get("/healthChecker", headers: flaky.merging([MockHeader.session: "b"]) { $1 }).status == 503)
        }
    }

    @Test func journal_RecordsAndFiltersBySession() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            _ = try client.get("/healthChecker", headers: [MockHeader.session: "one"])
            _ = try client.get("/healthChecker", headers: [MockHeader.session: "two"])
            _ = try client.get("/healthChecker")
            #expect(try server.journalEntries(JournalQuery(session: "one")).count == 1)
            #expect(try server.journalEntries(JournalQuery(session: "")).map(\.session) == [nil])
            let listed = try client.get("/__mock/journal?session=two")
            let entries = try JSONDecoder().decode([JournalEntry].self, from: Data(listed.body))
            #expect(entries.map(\.session) == ["two"])
        }
    }

    @Test func sessions_AreListedAndDeleted_OnceTheyHoldState() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            _ = try client.request("PUT", "/__mock/scenarios/healthCheck?session=kept", body: #"{"scenario": "serverErr"}"#)
            _ = try client.get("/healthChecker", headers: [MockHeader.session: "gone", MockHeader.scenario: "flaky"])
            _ = try client.get("/healthChecker", headers: [MockHeader.session: "plain"])
            let listed = try client.get("/__mock/sessions").text
            #expect(listed.contains(#""id":"kept""#) && listed.contains(#""id":"gone""#))
            #expect(!listed.contains(#""id":"plain""#), "a session whose requests changed nothing leaves no trace")
            #expect(listed.contains(#""scenarios":{"healthCheck":"serverErr"}"#))
            #expect(try client.request("DELETE", "/__mock/sessions/gone").status == 204)
            #expect(try client.request("DELETE", "/__mock/sessions/gone").status == 404)
            #expect(!(try client.get("/__mock/sessions").text.contains(#""id":"gone""#)))
            // An id with a slash in it is not "every session".
            #expect(try client.request("DELETE", "/__mock/sessions/kept/x").status == 404)
            #expect(try client.request("DELETE", "/__mock/states/questions/x").status == 404)
            #expect(try client.get("/__mock/sessions").text.contains(#""id":"kept""#))
            #expect(try client.request("DELETE", "/__mock/sessions").status == 204)
            #expect(try client.get("/__mock/sessions").text == "[]")
        }
    }

    /// The precedence within a named session: the request's `X-Mock-Scenario` header wins over the admin
    /// override set for that session, which wins over the default.
    @Test func scenarioHeader_WinsOverTheSessionsOverride() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let set = try client.request("PUT", "/__mock/scenarios/healthCheck?session=s", body: #"{"scenario": "serverErr"}"#)
            #expect(set.status == 200)
            let inSession = [MockHeader.session: "s"]
            #expect(try client.get("/healthChecker", headers: inSession).status == 503)
            let named = try client.get("/healthChecker", headers: inSession.merging([MockHeader.scenario: "success"]) { $1 })
            #expect(named.status == 200 && named.header(MockHeader.scenario) == "success")
            let journal = try server.journalEntries(JournalQuery(session: "s"))
            #expect(journal.map(\.scenario) == ["serverErr", "success"])
        }
    }

    /// One session table: a cart changed in a session makes the session, listed and counted like any other,
    /// and dropping the session drops the cart with it.
    @Test func resourceChange_MakesASession_ThatIsListedCountedAndDroppedWhole() async throws {
        try await withServer { server in
            // GIVEN alice adds an item to her cart, and bob only reads his
            let client = try RawClient(port: server.port)
            let alice = bearer.merging([MockHeader.session: "alice", "Content-Type": "application/json"]) { $1 }
            let bob = bearer.merging([MockHeader.session: "bob"]) { $1 }
            #expect(try client.request("POST", "/api/cart/items", headers: alice,
                                       body: #"{"productId": 2, "quantity": 1}"#).status == 201)
            #expect(try client.get("/api/cart/items", headers: bob).status == 200)

            // THEN alice's session is listed, with her cart, and counted; bob's, which changed nothing, is not
            let listed = try client.get("/__mock/sessions").text
            #expect(listed.contains(#""id":"alice""#) && listed.contains(#""resources":{"cartItems":3}"#), "\(listed)")
            #expect(!listed.contains(#""id":"bob""#))
            #expect(try client.get("/__mock/health").text.contains(#""sessions":1"#))

            // WHEN her session is dropped, THEN her cart is the seed again
            #expect(try client.request("DELETE", "/__mock/sessions/alice").status == 204)
            let cart = try client.get("/api/cart/items", headers: alice)
            #expect((try JSONSerialization.jsonObject(with: Data(cart.body)) as? [Any])?.count == 2, "\(cart.text)")

            // WHEN every session is dropped after she adds again, THEN her cart is the seed again too
            _ = try client.request("POST", "/api/cart/items", headers: alice, body: #"{"productId": 2, "quantity": 1}"#)
            #expect(try client.request("DELETE", "/__mock/sessions").status == 204)
            let again = try client.get("/api/cart/items", headers: alice)
            #expect((try JSONSerialization.jsonObject(with: Data(again.body)) as? [Any])?.count == 2, "\(again.text)")
            #expect(try client.get("/__mock/sessions").text == "[]")
        }
    }

    @Test func overlongSessionID_IsRefused() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let long = String(repeating: "x", count: 200)
            let response = try client.get("/healthChecker", headers: [MockHeader.session: long])
            #expect(response.status == 400)
            #expect(response.text.contains("X-Mock-Session"))
            #expect(try client.get("/__mock/contracts?session=" + long).status == 400)
        }
    }

    /// Many sessions at once, each walking the flaky sequence and the answer flow on its own
    /// connection: none sees another's steps or state.
    @Test func manyInterleavedSessions_NeverSeeEachOthersState() async throws {
        try await withServer(configure: { $0.threads = 2 }) { server in
            let port = server.port
            let bearer = bearer
            try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<24 {
                    group.addTask {
                        try await offThePool {
                            let client = try RawClient(port: port)
                            let session = [MockHeader.session: "s\(index)"]
                            var problems: [String] = []
                            let flaky = session.merging([MockHeader.scenario: "flaky"]) { $1 }
                            let statuses = try (0..<4).map { _ in try client.get("/healthChecker", headers: flaky).status }
                            if statuses != [503, 503, 200, 200] { problems.append("s\(index) flaky: \(statuses)") }
                            let headers = bearer.merging(session) { $1 }
                            let before = try client.get("/api/v1/question/3", headers: headers).header(MockHeader.scenario)
                            if index.isMultiple(of: 2) {
                                _ = try client.request("PUT", "/api/v1/question", headers: headers.merging(
                                    ["Content-Type": "application/json"]) { $1 }, body: #"{"index": 3, "myAnswer": "a"}"#)
                            }
                            let after = try client.get("/api/v1/question/3", headers: headers).header(MockHeader.scenario)
                            let expected = index.isMultiple(of: 2) ? "answered" : "success"
                            if before != "success" || after != expected {
                                problems.append("s\(index) state: \(before ?? "-") then \(after ?? "-")")
                            }
                            return problems
                        }
                    }
                }
                var problems: [String] = []
                for try await found in group { problems += found }
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }
}
