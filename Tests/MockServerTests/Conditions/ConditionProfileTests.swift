import ContractModel
import Foundation
import HTTPCore
import MockServer
import Testing
import TestSupport

/// Condition profiles laid over every endpoint: per request, server-wide, switched at run time.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ConditionProfileTests {
    private static let contract = """
        {"domain": "c", "endpoints": [{"id": "ping", "method": "GET", "path": "/ping",
          "scenarios": [{"name": "success", "status": 200, "body": "ok.txt", "expect": "success"}]}]}
        """

    private func serve(configure: @escaping (inout MockServer.Configuration) -> Void = { _ in },
                       _ body: @escaping @Sendable (MockServer) throws -> Void) async throws {
        let folder = try ScratchContracts(contracts: [("c.json", Self.contract)], fixtures: [("ok.txt", "OK")])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures, configure: configure) { server in
            try await offThePool { try body(server) }
        }
    }

    /// Half the requests of a profile with `failurePercent` 50 fail with its fault, reproducibly with a seed.
    @Test func failurePercent_FailsThatShare_WithItsFault() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flaky-\(UUID().uuidString).json").path
        try #"{"name": "flaky", "failurePercent": 50, "fault": "empty_response"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let profile = try ConditionProfile.named(file)
        try await serve(configure: { $0.conditions = profile; $0.seed = 3 }) { server in
            var failed = 0
            for _ in 0..<200 {
                let client = try RawClient(port: server.port)
                client.send("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                if client.readToEnd().bytes.isEmpty { failed += 1 }
            }
            #expect((60...140).contains(failed), "\(failed) of 200 failed")
            let entries = try server.journalEntries()
            #expect(entries.filter { $0.fault == .emptyResponse }.count == failed)
            #expect(entries.first { $0.fault != nil }?.reason == "conditions flaky: 50.0% of requests fail with empty_response")
        }
    }

    @Test func adminAPI_SwitchesTheProfile_AndAHeaderPicksOneForARequest() async throws {
        try await serve { server in
            let client = try RawClient(port: server.port)
            let json = ["Content-Type": "application/json"]
            #expect(try client.request("PUT", "/__mock/conditions", headers: json, body: #"{"profile": "3g"}"#).text.contains(#""active":"3g""#))
            #expect(try client.get("/ping").text == "OK")
            #expect(try server.journalEntries().last?.delayMs == 100, "3g's latency")
            #expect(try client.get("/ping", headers: [MockHeader.conditions: "wifi"]).status == 200)
            #expect(try server.journalEntries().last?.delayMs == 2, "the header's profile wins")
            let unknown = try client.get("/ping", headers: [MockHeader.conditions: "5g"])
            #expect(unknown.status == 400 && unknown.text.contains("edge, 3g, lte, wifi, train"))
            #expect(try client.request("PUT", "/__mock/conditions", headers: json, body: #"{"profile": "5g"}"#).status == 404)
            #expect(try client.request("PUT", "/__mock/conditions", headers: json, body: "[]").status == 400)
            let cleared = try client.request("DELETE", "/__mock/conditions")
            #expect(cleared.status == 200 && !cleared.text.contains(#""active":""#), "\(cleared.text)")
            #expect(try client.get("/__mock/conditions").text.contains("\"train\""))
            _ = try client.get("/ping")
            #expect(try server.journalEntries().last?.delayMs == nil, "no profile: no wait")
        }
    }

    /// A profile is a value (a class of constants, for speed): two read from the same text are equal, and a
    /// difference in any one field makes them unequal.
    @Test func profiles_AreEqualByValue() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("eq-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        func profile(_ fields: [String: String]) throws -> ConditionProfile {
            let base = ["name": #""p""#, "latency": #""100-200""#, "bandwidth": #""3g""#, "failurePercent": "5",
                        "fault": #""empty_response""#]
            let json = "{" + base.merging(fields) { $1 }.map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}"
            try json.write(toFile: file, atomically: true, encoding: .utf8)
            return try ConditionProfile.named(file)
        }
        let first = try profile([:])
        let second = try profile([:])
        #expect(first !== second)
        #expect(first == second)
        let changes = [["name": #""q""#], ["latency": #""100-300""#], ["bandwidth": #""lte""#], ["failurePercent": "6"],
                       ["fault": #""truncated_body""#]]
        for change in changes { #expect(try profile(change) != first, "\(change)") }
    }

    @Test func badProfiles_AreClearErrors() throws {
        #expect { try ConditionProfile.named("5g") } throws: { "\($0)".contains("neither a profile (edge, 3g, lte, wifi, train)") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try #"{"name": "x", "failurePercent": 150}"#.write(toFile: file, atomically: true, encoding: .utf8)
        #expect { try ConditionProfile.named(file) } throws: { "\($0)".contains("failurePercent: is 0...100") }
        try #"{"name": "x", "fault": "no_response"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        #expect { try ConditionProfile.named(file) } throws: { "\($0)".contains("fault: is one of") }
        #expect { try ConditionProfile.named("/nonexistent/p.json") } throws: { "\($0)".contains("cannot read") }
    }
}
