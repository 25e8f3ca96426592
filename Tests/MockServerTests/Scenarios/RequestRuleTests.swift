import Foundation
import MockServer
import Testing
import TestSupport

/// `when`: the scenario follows what the request says. Over real sockets.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct RequestRuleTests {
    static let contract = #"""
    {
      "domain": "shop",
      "states": ["open", "closed"],
      "endpoints": [
        {
          "id": "books", "method": "GET", "path": "/books/{shelf}",
          "request": { "query": { "genre": "string?", "page": "integer?", "q": "string?" } },
          "whenState": { "closed": "closed" },
          "scenarios": [
            { "name": "all", "status": 200, "body": "ok.json", "expect": "success" },
            { "name": "fantasy", "status": 200, "body": "ok.json", "expect": "success",
              "when": { "query": { "genre": "fantasy" } } },
            { "name": "science", "status": 200, "body": "ok.json", "expect": "success",
              "when": { "query": { "genre": { "oneOf": ["tech", "science"] } } } },
            { "name": "dragons", "status": 200, "body": "ok.json", "expect": "success",
              "when": { "query": { "q": { "contains": "dragon" } } } },
            { "name": "top", "status": 200, "body": "ok.json", "expect": "success",
              "when": { "pathParams": { "shelf": { "prefix": "top-" } } } },
            { "name": "gold", "status": 200, "body": "ok.json", "expect": "success",
              "when": { "cookies": { "tier": "gold" } } },
            { "name": "kids", "status": 200, "body": "ok.json", "expect": "success",
              "when": { "headers": { "x-age": { "regex": "[0-9]" } } } },
            { "name": "secondPageNotFantasy", "status": 200, "body": "ok.json", "expect": "success",
              "when": { "query": { "page": "2", "genre": { "not": "fantasy" } } } },
            { "name": "closed", "status": 503, "expect": "serverErr" },
            { "name": "down", "status": 500, "expect": "serverErr" }
          ]
        },
        {
          "id": "shelf", "method": "GET", "path": "/shelves/{id}",
          "scenarios": [
            { "name": "any", "status": 200, "body": "ok.json", "expect": "success" },
            { "name": "top", "status": 200, "body": "ok.json", "expect": "success",
              "when": { "pathParams": { "id": "top" }, "query": { "sort": { "present": false } } } }
          ]
        },
        {
          "id": "orders", "method": "POST", "path": "/orders",
          "scenarios": [
            { "name": "noToken", "status": 401, "expect": "requestErr",
              "when": { "headers": { "Authorization": { "present": false } } } },
            { "name": "gift", "status": 201, "expect": "success",
              "when": [ { "body": { "/kind": "gift" } }, { "query": { "gift": "1" } } ] },
            { "name": "bulk", "status": 201, "expect": "success",
              "when": { "body": { "/count": { "equals": 3 }, "/customer/tier": { "oneOf": ["vip", "gold"] } } } },
            { "name": "plain", "status": 201, "expect": "success",
              "when": { "body": { "/kind": "plain" } } },
            { "name": "coded", "status": 201, "expect": "success",
              "when": { "body": { "/code": { "equals": 3 } } } },
            { "name": "slashed", "status": 201, "expect": "success",
              "when": { "body": { "/a~1b": "x" } } }
          ]
        }
      ]
    }
    """#

    private func withRules(_ body: (MockServer, RawClient) throws -> Void) async throws {
        let scratch = try ScratchContracts(contracts: [("shop.json", Self.contract)], fixtures: [("ok.json", "{}")])
        try await withServer(contracts: scratch.contracts, fixtures: scratch.fixtures) { server in
            try body(server, try RawClient(port: server.port))
        }
    }

    @Test(arguments: [
        ("/books/a", [String: String](), "all"),
        ("/books/a?genre=fantasy", [:], "fantasy"),
        ("/books/a?genre=Fantasy", [:], "all"),
        ("/books/a?genre=science", [:], "science"),
        ("/books/a?genre=tech", [:], "science"),
        ("/books/a?q=red%20dragons", [:], "dragons"),
        ("/books/top-10", [:], "top"),
        ("/books/a", ["Cookie": "theme=dark; tier=gold"], "gold"),
        ("/books/a", ["Cookie": "tier=silver"], "all"),
        ("/books/a", ["X-Age": "7"], "kids"),
        ("/books/a", ["X-Age": "17"], "all"),
        ("/books/a?page=2&genre=tech", [:], "science"),
        ("/books/a?page=2", [:], "secondPageNotFantasy"),
        ("/books/a?page=2&genre=crime", [:], "secondPageNotFantasy"),
        ("/books/a?page=2&genre=fantasy", [:], "fantasy"),
    ])
    func eachSourceAndMatcher_PicksItsScenario(target: String, headers: [String: String], expected: String) async throws {
        try await withRules { _, client in
            let response = try client.get(target, headers: headers)
            #expect(response.status == 200 && response.header(MockHeader.scenario) == expected, "\(target): \(response.text)")
        }
    }

    @Test(arguments: [
        ("application/json", #"{"kind": "gift"}"#, "", "gift"),
        ("application/json", #"{"kind": "plain"}"#, "?gift=1", "gift"),
        ("application/json", #"{"kind": "plain"}"#, "", "plain"),
        ("application/json", #"{"count": 3, "customer": {"tier": "gold"}}"#, "", "bulk"),
        ("application/json", #"{"count": 3.0, "customer": {"tier": "vip"}}"#, "", "bulk"),
        ("application/x-www-form-urlencoded", "kind=gift&note=a+b", "", "gift"),
        // A number in the contract equals a string spelled as it, as a string in the contract equals a number.
        ("application/json", #"{"code": "3"}"#, "", "coded"),
        // A pointer's escapes are a form field's name: /a~1b is the field a/b.
        ("application/x-www-form-urlencoded", "a%2Fb=x", "", "slashed"),
    ])
    func bodyPointers_AndAnyOfRules_PickTheirScenario(type: String, body: String, query: String, expected: String)
        async throws
    {
        try await withRules { _, client in
            let response = try client.request("POST", "/orders" + query,
                                               headers: ["Authorization": "Bearer t", "Content-Type": type], body: body)
            #expect(response.status == 201 && response.header(MockHeader.scenario) == expected, "\(body): \(response.text)")
        }
    }

    @Test func missingToken_Is401_WhileAPresentOne_Is201() async throws {
        try await withRules { _, client in
            let json = ["Content-Type": "application/json"]
            let anonymous = try client.request("POST", "/orders", headers: json, body: #"{"kind": "gift"}"#)
            #expect(anonymous.status == 401)
            let authorized = try client.request("POST", "/orders", headers: json.merging(["Authorization": "Bearer t"]) { $1 },
                                                body: #"{"kind": "gift"}"#)
            #expect(authorized.status == 201)
        }
    }

    @Test func noRuleHolding_IsANearMiss404_NamingTheClosestRule() async throws {
        try await withRules { server, client in
            let response = try client.request("POST", "/orders", headers: ["Authorization": "Bearer t",
                                                                          "Content-Type": "application/json"],
                                              body: #"{"count": 3, "customer": {"tier": "bronze"}}"#)
            #expect(response.status == 404)
            #expect(response.header(MockHeader.endpoint) == "orders" && response.header(MockHeader.scenario) == nil)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            let closest = try #require(body["closest"] as? [String: Any])
            #expect(closest["scenario"] as? String == "bulk" && closest["rule"] as? Int == 0)
            #expect(closest["condition"] as? String == "body./customer/tier")
            #expect(closest["actual"] as? String == "bronze")
            #expect((body["responseMsg"] as? String)?.contains("no scenario of orders applies") == true)
            let entry = try #require(server.journalEntries().last)
            #expect(entry.status == 404 && entry.reason?.contains("closest: \"bulk\"") == true)
        }
    }

    @Test func precedence_HeaderThenOverrideThenWhenThenStateThenDefault() async throws {
        try await withRules { server, client in
            let fantasy = "/books/a?genre=fantasy"
            // when beats the domain's state
            #expect(try client.request("PUT", "/__mock/states/shop", body: #"{"state": "closed"}"#).status == 200)
            #expect(try client.get(fantasy).header(MockHeader.scenario) == "fantasy")
            #expect(try client.get("/books/a").header(MockHeader.scenario) == "closed", "state beats the default")
            // an override beats when
            #expect(try client.request("PUT", "/__mock/scenarios/books", body: #"{"scenario": "down"}"#).status == 200)
            #expect(try client.get(fantasy).header(MockHeader.scenario) == "down")
            // the header beats the override
            #expect(try client.get(fantasy, headers: [MockHeader.scenario: "top"]).header(MockHeader.scenario) == "top")
            let reasons = try server.journalEntries().suffix(4).map(\.selectedBy)
            #expect(reasons == ["when", "state", "override", "header"])
        }
    }

    @Test func sessions_KeepTheirOverrides_WhileRulesReadEachRequest() async throws {
        try await withRules { server, client in
            #expect(try client.request("PUT", "/__mock/scenarios/books?session=a", body: #"{"scenario": "down"}"#).status == 200)
            #expect(try client.get("/books/a?genre=fantasy", headers: [MockHeader.session: "a"]).status == 500)
            let other = try client.get("/books/a?genre=fantasy", headers: [MockHeader.session: "b"])
            #expect(other.header(MockHeader.scenario) == "fantasy")
            let entry = try #require(server.journalEntries().last)
            #expect(entry.selectedBy == "when" && entry.rule == 0 && entry.session == "b")
        }
    }

    @Test func journalAndAdmin_ShowTheRuleThatHeld_AndEveryScenariosRules() async throws {
        try await withRules { server, client in
            _ = try client.request("POST", "/orders?gift=1", headers: ["Authorization": "Bearer t",
                                                                      "Content-Type": "application/json"], body: "{}")
            let entry = try #require(server.journalEntries().last)
            #expect(entry.scenario == "gift" && entry.selectedBy == "when" && entry.rule == 1)
            #expect(try client.get("/__mock/journal?limit=1").text.contains(#""rule":1"#))
            let contracts = try client.get("/__mock/contracts").text
            #expect(contracts.contains(#""gift":[{"body":{"/kind":"gift"}},{"query":{"gift":"1"}}]"#), "\(contracts)")
            #expect(contracts.contains(#""activeBecause":"when""#), "orders has no scenario without when")
        }
    }

    /// Rules that read only the target (path and query) are decided once per target by each event loop's memo: a
    /// repeated target gets the same rule, another target its own, and what outranks a rule still does.
    @Test func targetOnlyRules_AreKeptPerTarget_AndStillYieldToAnOverride() async throws {
        try await withRules { _, client in
            var played: [String?] = []
            for _ in 0..<3 {
                for target in ["/shelves/top", "/shelves/top?sort=asc", "/shelves/low"] {
                    played.append(try client.get(target).header(MockHeader.scenario))
                }
            }
            #expect(played == Array(repeating: ["top", "any", "any"], count: 3).flatMap { $0 })
            #expect(try client.request("PUT", "/__mock/scenarios/shelf", body: #"{"scenario": "any"}"#).status == 200)
            #expect(try client.get("/shelves/top").header(MockHeader.scenario) == "any")
            #expect(try client.request("DELETE", "/__mock/scenarios/shelf").status == 200)
            #expect(try client.get("/shelves/top").header(MockHeader.scenario) == "top")
        }
    }
}
