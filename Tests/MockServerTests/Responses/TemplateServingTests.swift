import Foundation
import MockServer
import Testing
import TestSupport

/// Templated fixtures and fixture paths from the query, served over real sockets.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct TemplateServingTests {
    private func json(_ response: RawResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func productPages_AreChosenByPageNo_AndEchoTheQuery() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let first = try json(client.get("/api/products?page_no=1&items_per_page=5"))
            let second = try json(client.get("/api/products?page_no=2&items_per_page=5"))
            let beyond = try json(client.get("/api/products?page_no=9&items_per_page=5"))
            #expect(first["page_no"] as? Int == 1 && first["items_per_page"] as? Int == 5)
            #expect(second["page_no"] as? Int == 2 && second["limit"] as? Int == 5)
            #expect((first["pages"] as? [Any])?.count == 6 && (second["pages"] as? [Any])?.count == 6)
            #expect(first["has_next"] as? Bool == true && second["has_next"] as? Bool == false)
            #expect(beyond["page_no"] as? Int == 9 && (beyond["pages"] as? [Any])?.isEmpty == true,
                    "a page without a file is served from the fallback")
            let padded = try json(client.get("/api/products?page_no=01&items_per_page=5"))
            #expect(padded["page_no"] as? Int == 1 && (padded["pages"] as? [Any])?.count == 6,
                    "an integer names its file as a plain integer: 01 selects page-1.json")
        }
    }

    /// A template that reads only the request's values keeps its last rendering; one that reads the counter or a
    /// UUID never does; an edited fixture is rendered afresh.
    @Test func aRepeatedRendering_IsTheSame_UntilAValueOrTheFileChanges() async throws {
        let contract = """
            {"domain": "memo", "endpoints": [
              {"id": "pure", "method": "GET", "path": "/pure", "request": {"query": {"n": "integer"}},
               "scenarios": [{"name": "success", "status": 200, "body": "pure.json", "template": true, "expect": "success"}]},
              {"id": "fresh", "method": "GET", "path": "/fresh",
               "scenarios": [{"name": "success", "status": 200, "body": "fresh.json", "template": true, "expect": "success"}]},
              {"id": "page", "method": "GET", "path": "/page", "request": {"query": {"n": "integer"}},
               "scenarios": [{"name": "success", "status": 200, "body": "pages/{n}.json", "expect": "success"}]},
              {"id": "echo", "method": "GET", "path": "/echo", "request": {"query": {"n": "integer"}},
               "scenarios": [{"name": "success", "status": 200, "body": "echo.json", "template": true, "expect": "success"}]}]}
            """
        let folder = try ScratchContracts(contracts: [("memo.json", contract)], fixtures: [
            ("pure.json", #"{"n": {{query.n}}, "agent": "{{header.X-Agent|none}}"}"#),
            ("fresh.json", #"{"count": {{counter}}, "id": "{{uuid}}"}"#),
            ("pages/1.json", #"{"page": 1}"#), ("pages/2.json", #"{"page": 2}"#),
            ("echo.json", #"{"n": {{query.n}}}"#),
        ])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            try await offThePool {
                let client = try RawClient(port: server.port)
                #expect(try client.get("/pure?n=1").text == #"{"n": 1, "agent": "none"}"#)
                #expect(try client.get("/pure?n=1").text == #"{"n": 1, "agent": "none"}"#)
                #expect(try client.get("/pure?n=2").text == #"{"n": 2, "agent": "none"}"#)
                #expect(try client.get("/pure?n=2", headers: ["X-Agent": "a"]).text == #"{"n": 2, "agent": "a"}"#)
                #expect(try client.get("/pure?n=2").text == #"{"n": 2, "agent": "none"}"#)
                let fresh = try (1...3).map { _ in try client.get("/fresh").text }
                #expect(Set(fresh).count == 3, "\(fresh)")
                // The file edited (its size changes, so the change is seen whatever the clock's resolution).
                try Data(#"{"n": {{query.n}}, "edited": true}"#.utf8)
                    .write(to: URL(fileURLWithPath: folder.fixtures + "/pure.json"))
                try pollUntil { (try? client.get("/pure?n=2").text) == #"{"n": 2, "edited": true}"# }
                // Bodies the target alone decides (a fixture path from the query, a template reading only the query),
                // asked again on one connection: the same until the value or the file changes.
                for _ in 0..<3 {
                    #expect(try client.get("/page?n=1").text == #"{"page": 1}"#)
                    #expect(try client.get("/echo?n=4").text == #"{"n": 4}"#)
                }
                #expect(try client.get("/page?n=2").text == #"{"page": 2}"#)
                #expect(try client.get("/echo?n=5").text == #"{"n": 5}"#)
                try Data(#"{"page": "one, edited"}"#.utf8).write(to: URL(fileURLWithPath: folder.fixtures + "/pages/1.json"))
                try Data(#"{"n": {{query.n}}, "edited": true}"#.utf8).write(to: URL(fileURLWithPath: folder.fixtures + "/echo.json"))
                try pollUntil { (try? client.get("/page?n=1").text) == #"{"page": "one, edited"}"# }
                try pollUntil { (try? client.get("/echo?n=4").text) == #"{"n": 4, "edited": true}"# }
            }
        }
    }

    private static let echoContract = """
        {"domain": "echo", "endpoints": [{"id": "echo", "method": "POST", "path": "/echo/{id}",
          "request": {"pathParams": {"id": "integer"}, "query": {"tag": "string?"}},
          "scenarios": [{"name": "success", "status": 200, "body": "echo.json", "template": true, "expect": "success"},
                        {"name": "strict", "status": 200, "body": "strict.json", "template": true, "expect": "success"}]}]}
        """

    private static let echoFixture = """
        {"id": {{path.id}}, "tag": "{{query.tag|none}}", "agent": "{{header.User-Agent|?}}",
         "name": "{{body/user/name}}", "user": {{body/user}}, "count": {{counter}}, "at": {{now.epoch}}, "uuid": "{{uuid}}"}
        """

    @Test func template_EchoesEverySource_EscapedAsJSON() async throws {
        let folder = try ScratchContracts(contracts: [("echo.json", Self.echoContract)],
                                          fixtures: [("echo.json", Self.echoFixture), ("strict.json", #"{"tag": "{{query.tag}}"}"#)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            let client = try RawClient(port: server.port)
            let body = #"{"user": {"name": "Kim \"K\"\n", "age": 30}}"#
            let response = try client.request("POST", "/echo/42?tag=a%22b", headers: [
                "Content-Type": "application/json", "User-Agent": #"Test\Agent"#], body: body)
            #expect(response.status == 200)
            let echo = try json(response)
            #expect(echo["id"] as? Int == 42)
            #expect(echo["tag"] as? String == #"a"b"#)
            #expect(echo["agent"] as? String == #"Test\Agent"#)
            #expect(echo["name"] as? String == "Kim \"K\"\n")
            #expect((echo["user"] as? [String: Any])?["age"] as? Int == 30)
            #expect(echo["count"] as? Int == 1)
            #expect(abs((echo["at"] as? Int ?? 0) - Int(Date().timeIntervalSince1970)) < 5)
            #expect((echo["uuid"] as? String)?.count == 36)
            #expect(response.header("Content-Length") == String(response.body.count))
            let again = try json(client.request("POST", "/echo/7", headers: ["Content-Type": "application/json"], body: body))
            #expect(again["count"] as? Int == 2, "the counter counts the endpoint's templated responses")
            #expect(again["tag"] as? String == "none", "a missing value takes the default")
        }
    }

    @Test func missingValueWithoutDefault_Is500NamingThePlaceholder_AndJournaled() async throws {
        let folder = try ScratchContracts(contracts: [("echo.json", Self.echoContract)],
                                          fixtures: [("echo.json", Self.echoFixture), ("strict.json", #"{"tag": "{{query.tag}}"}"#)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            let client = try RawClient(port: server.port)
            let response = try client.request("POST", "/echo/1", headers: [MockHeader.scenario: "strict"])
            #expect(response.status == 500)
            #expect(response.text.contains("{{query.tag}}"))
            let entry = try #require(try server.journalEntries(JournalQuery(limit: 1)).last)
            #expect(entry.status == 500)
            #expect(entry.reason?.contains("{{query.tag}}") == true)
        }
    }

    @Test func templateBrokenWhileRunning_Is500NamingTheProblem_AndTheFixResumesIt() async throws {
        let folder = try ScratchContracts(contracts: [("echo.json", Self.echoContract)],
                                          fixtures: [("echo.json", Self.echoFixture), ("strict.json", #"{"tag": "{{query.tag}}"}"#)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            let client = try RawClient(port: server.port)
            try folder.writeFixture("strict.json", #"{"tag": "{{query.tag"}"#)
            let broken = try client.request("POST", "/echo/1?tag=x", headers: [MockHeader.scenario: "strict"])
            #expect(broken.status == 500)
            #expect(broken.text.contains("strict.json") && broken.text.contains("line 1"))
            try folder.writeFixture("strict.json", #"{"tag": "{{query.tag}}!"}"#)
            let fixed = try client.request("POST", "/echo/1?tag=x", headers: [MockHeader.scenario: "strict"])
            #expect(fixed.text == #"{"tag": "x!"}"#)
        }
    }
}
