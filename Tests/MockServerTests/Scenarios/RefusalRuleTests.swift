import Foundation
import MockServer
import Testing
import TestSupport

/// A `when` rule that picks a 401 for requests without `Authorization` answers a request whose only fault is that
/// missing bearer token, with the contract's own refusal (as a recording writes it), and the journal still shows the
/// violation; a rule about anything else never turns a missing token into its answer.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct RefusalRuleTests {
    static let contract = """
        {"domain": "orders", "endpoints": [{"id": "orders", "method": "GET", "path": "/orders",
          "request": {"auth": "bearer", "query": {"tier": "string?"}},
          "scenarios": [
            {"name": "success", "status": 200, "body": "list.json", "expect": "success"},
            {"name": "gold", "status": 403, "body": "gold.json", "expect": "requestErr",
             "when": {"query": {"tier": "gold"}}},
            {"name": "refused", "status": 401, "body": "refused.json", "expect": "requestErr",
             "when": {"headers": {"Authorization": {"present": false}}}}]}]}
        """

    @Test func theRecordedRefusal_AnswersAMissingToken_AndTheJournalShowsTheViolation() async throws {
        let folder = try ScratchContracts(contracts: [("orders.json", Self.contract)], fixtures: [
            ("list.json", #"{"orders":[]}"#), ("refused.json", #"{"error":"log in first"}"#),
            ("gold.json", #"{"error":"gold members only"}"#),
        ])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            try await offThePool {
                let client = try RawClient(port: server.port, timeout: 5)
                let refused = try client.get("/orders")
                #expect(refused.status == 401 && refused.text == #"{"error":"log in first"}"#, "\(refused.text)")
                let entry = try #require(try server.journalEntries(JournalQuery(endpoint: "orders")).last)
                #expect(entry.scenario == "refused" && entry.violations.contains { $0.contains("bearer token") },
                        "\(entry.violations)")
                // A 403 the query picks first is no answer to a missing token: the server's own 401 is.
                let gold = try client.get("/orders?tier=gold")
                #expect(gold.status == 401 && gold.text.contains("breaks the contract"), "\(gold.text)")
                let member = try client.get("/orders?tier=gold", headers: ["Authorization": "Bearer t"])
                #expect(member.status == 403 && member.text == #"{"error":"gold members only"}"#)
            }
        }
    }
}
