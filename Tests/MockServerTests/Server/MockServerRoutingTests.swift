import ContractModel
import Foundation
import MockServer
import Testing
import TestSupport

/// Routing, scenarios, validation and the admin API, over real loopback sockets.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct MockServerRoutingTests {
    @Test func fixture_IsServed_WithFramingHeaders() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let response = try client.get("/api/products/1")
            #expect(response.statusLine == "HTTP/1.1 200 OK")
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Connection") == "keep-alive")
            #expect(response.header("Date")?.hasSuffix(" GMT") == true)
            #expect(response.header("X-Mock-Scenario") == "success")
            let fixture = try Data(contentsOf: URL(fileURLWithPath: Repository.fixtures + "/products/1.json"))
            #expect(response.body == Array(fixture))
        }
    }

    @Test func perIdFixture_IsServed_AndMissingIdIs404() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let found = try client.get("/api/products/3")
            let fixture = try Data(contentsOf: URL(fileURLWithPath: Repository.fixtures + "/products/3.json"))
            #expect(found.status == 200 && found.body == Array(fixture))
            let missing = try client.get("/api/products/4040")
            #expect(missing.status == 404)
            #expect(missing.text.contains("no fixture"))
        }
    }

    @Test func unknownPath_Is404_AndOtherMethodIs405WithAllow() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            #expect(try client.get("/nothing/here").status == 404)
            client.send("DELETE /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD, OPTIONS")
        }
    }

    @Test func head_SendsHeadersWithoutBody() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("HEAD /healthChecker HTTP/1.1\r\nHost: a\r\n\r\nGET /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n")
            client.finishSending()
            let (bytes, _) = client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            // The HEAD response announces 2 bytes but carries none; the GET that follows carries "OK".
            #expect(text.components(separatedBy: "Content-Length: 2\r\n").count == 3)
            #expect(text.hasSuffix("\r\n\r\nOK"))
        }
    }

    @Test func scenarioHeader_PicksScenario_AndUnknownNameIs400ListingValidOnes() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let error = try client.get("/healthChecker", headers: ["X-Mock-Scenario": "serverErr"])
            #expect(error.statusLine == "HTTP/1.1 503 Service Unavailable")
            #expect(error.text == "Down for maintenance")
            let unknown = try client.get("/healthChecker", headers: ["X-Mock-Scenario": "nope"])
            #expect(unknown.status == 400)
            #expect(unknown.text.contains(#""validScenarios":["success","requestErr""#))
            let entry = try #require(server.journal.entries().last)
            #expect(entry.violations.first?.contains("unknown scenario \"nope\"") == true)
        }
    }

    @Test func adminAPI_SwitchesAndResetsActiveScenario() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("PUT /__mock/scenarios/healthCheck HTTP/1.1\r\nHost: localhost\r\nContent-Length: 25\r\n\r\n"
                        + #"{"scenario":"requestErr"}"#)
            let set = try client.readResponse()
            #expect(set.status == 200)
            #expect(set.text.contains(#""active":"requestErr""#))
            #expect(try client.get("/healthChecker").status == 429)

            let contracts = try client.get("/__mock/contracts")
            #expect(contracts.text.contains(#""id":"healthCheck""#) && contracts.text.contains(#""active":"requestErr""#))

            client.send("DELETE /__mock/scenarios/healthCheck HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            #expect(try client.get("/healthChecker").status == 200)
        }
    }

    @Test func adminAPI_RejectsUnknownEndpointScenarioAndBody() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            func put(_ path: String, _ body: String) throws -> RawResponse {
                client.send("PUT \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                return try client.readResponse()
            }
            #expect(try put("/__mock/scenarios/nope", #"{"scenario":"success"}"#).status == 404)
            let badScenario = try put("/__mock/scenarios/healthCheck", #"{"scenario":"nope"}"#)
            #expect(badScenario.status == 400 && badScenario.text.contains("valid: success"))
            #expect(try put("/__mock/scenarios/healthCheck", "not json").status == 400)
            #expect(try client.get("/__mock/unknown").status == 404)
            #expect(try client.get("/__mock/health").text.hasPrefix(#"{"address":"127.0.0.1:"#))
            #expect(try client.get("/__mock/health").text.contains(#""endpoints":17,"fixturesDirectory":"#))
            #expect(try client.get("/__mock/health").text.contains(#""requests":0,"sessions":0,"startedAt":"#))
        }
    }

    @Test func serverWideScenario_AppliesWhereItExists() async throws {
        try await withServer(configure: { $0.scenario = "slow" }) { server in
            let client = try RawClient(port: server.port)
            // healthCheck has "slow"; productDetail has not and keeps its first scenario.
            #expect(try client.get("/healthChecker").header("X-Mock-Scenario") == "slow")
            #expect(try client.get("/api/products/1").header("X-Mock-Scenario") == "success")
        }
    }

    @Test func journal_RecordsRequests_AndAdminClearsIt() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            _ = try client.get("/api/products/2", headers: ["X-Trace": "t-1"])
            let entry = try #require(server.journal.entries().last)
            #expect(entry.method == "GET" && entry.target == "/api/products/2")
            #expect(entry.endpoint == "productDetail" && entry.scenario == "success" && entry.status == 200)
            #expect(entry.header("x-trace") == "t-1")
            #expect(entry.violations.isEmpty)

            let journal = try client.get("/__mock/journal?limit=1")
            #expect(journal.text.contains(#""target":"/api/products/2""#))
            client.send("DELETE /__mock/journal HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.readResponse().status == 204)
            #expect(server.journal.entries().isEmpty)
        }
    }
}


@Suite(.timeLimit(.minutes(2)), .blockingIO) struct JournalCodingTests {
    @Test func journalEntry_RoundTripsThroughTheAdminJSON() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            _ = try client.get("/api/products/1", headers: ["X-Trace": "round-trip"])
            let response = try client.get("/__mock/journal?endpoint=productDetail")
            let decoded = try JSONDecoder().decode([JournalEntry].self, from: Data(response.body))
            #expect(decoded == server.journal.entries().filter { $0.endpoint == "productDetail" })
            #expect(decoded.last?.header("X-TRACE") == "round-trip")
            #expect(decoded.last?.time.hasSuffix("Z") == true)
        }
    }
}
