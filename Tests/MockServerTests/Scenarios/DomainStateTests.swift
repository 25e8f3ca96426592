import Foundation
import MockServer
import Testing
import TestSupport

/// Domain states over real sockets: a scenario moves its domain to a state, and an endpoint plays the
/// state's scenario; the admin API reads, sets and resets states.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct DomainStateTests {
    private let bearer = ["Authorization": "Bearer token"]

    @Test func answeringQuestion3_MakesTheNextGetShowTheAnswer() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let before = try client.get("/api/v1/question/3", headers: bearer)
            #expect(before.text.contains(#""myAnswer":null"#) || before.text.contains(#""myAnswer": null"#))

            let answer = try client.request("PUT", "/api/v1/question", headers: bearer.merging(
                ["Content-Type": "application/json"]) { $1 }, body: #"{"index": 3, "myAnswer": "한강 공원"}"#)
            #expect(answer.status == 200)

            let after = try client.get("/api/v1/question/3", headers: bearer)
            #expect(after.status == 200)
            #expect(after.text.contains("한강 공원"))
            #expect(after.header(MockHeader.scenario) == "answered")
            let entry = try #require(try server.journalEntries(JournalQuery(endpoint: "question", limit: 1)).last)
            #expect(entry.selectedBy == "state")
            // A question without an answered fixture falls back to its plain one.
            let other = try client.get("/api/v1/question/1", headers: bearer)
            #expect(other.status == 200)
            #expect(other.header(MockHeader.scenario) == "answered")
        }
    }

    @Test func adminAPI_ShowsSetsAndResetsADomainsState() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let listed = try client.get("/__mock/states")
            #expect(listed.status == 200)
            let states = try JSONSerialization.jsonObject(with: Data(listed.body)) as? [[String: Any]]
            #expect(states?.count == 1)
            #expect(states?.first?["domain"] as? String == "questions")
            #expect(states?.first?["state"] as? String == "open")
            #expect(states?.first?["states"] as? [String] == ["open", "answered"])

            let set = try client.request("PUT", "/__mock/states/questions", body: #"{"state": "answered"}"#)
            #expect(set.status == 200)
            #expect(set.text.contains(#""state":"answered""#))
            #expect(try client.get("/api/v1/question/3", headers: bearer).header(MockHeader.scenario) == "answered")

            #expect(try client.request("DELETE", "/__mock/states/questions").status == 200)
            #expect(try client.get("/api/v1/question/3", headers: bearer).header(MockHeader.scenario) == "success")
        }
    }

    @Test func adminAPI_RefusesUnknownDomainsAndStates_NamingTheValidOnes() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let unknownState = try client.request("PUT", "/__mock/states/questions", body: #"{"state": "closed"}"#)
            #expect(unknownState.status == 400)
            #expect(unknownState.text.contains("open, answered"))
            let unknownDomain = try client.request("PUT", "/__mock/states/health", body: #"{"state": "x"}"#)
            #expect(unknownDomain.status == 404)
            #expect(unknownDomain.text.contains("questions"))
            let badBody = try client.request("PUT", "/__mock/states/questions", body: "answered")
            #expect(badBody.status == 400)
        }
    }

    /// `X-Mock-Scenario`, then the admin override, then the state's scenario, then `--scenario`, then
    /// the first scenario.
    @Test func precedence_HeaderOverrideStateServerFirst() async throws {
        try await withServer(configure: { $0.scenario = "serverErr" }) { server in
            let client = try RawClient(port: server.port)
            func played(_ headers: [String: String] = [:]) throws -> String? {
                try client.get("/api/v1/question/3", headers: bearer.merging(headers) { $1 }).header(MockHeader.scenario)
            }
            #expect(try played() == "serverErr", "--scenario over the first scenario")
            #expect(try client.request("PUT", "/__mock/states/questions", body: #"{"state": "answered"}"#).status == 200)
            #expect(try played() == "answered", "the state's scenario over --scenario")
            #expect(server.setScenario("pathErr", for: "question"))
            #expect(try played() == "pathErr", "the admin override over the state")
            #expect(try played([MockHeader.scenario: "requestErr"]) == "requestErr", "the header over everything")
            let listing = try client.get("/__mock/contracts").text
            #expect(listing.contains(#""active":"pathErr","activeBecause":"override""#))
        }
    }
}
