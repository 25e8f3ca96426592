import Foundation
import MockServer
import Testing
@testable import HTTPCore
import TestSupport

/// Contracts edited while the server runs: a valid set replaces the served one at once, a broken one
/// changes nothing served and is reported until fixed.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ContractReloadTests {
    private static let ping = """
        {"domain": "ping", "endpoints": [{"id": "ping", "method": "GET", "path": "/ping", "scenarios": [
          {"name": "ok", "status": 204, "expect": "success"},
          {"name": "down", "status": 503, "expect": "serverErr"}]}]}
        """

    @Test func editedContract_IsServedWithoutRestart() async throws {
        let folder = try ScratchContracts(contracts: [("ping.json", Self.ping)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            let client = try RawClient(port: server.port)
            #expect(try client.get("/pong").status == 404)
            try folder.writeContract("ping.json", Self.ping.replacingOccurrences(of: "/ping", with: "/pong"))
            // The watcher (Linux) or the once-a-second check (elsewhere) sees the change.
            try await waitUntil(seconds: 5) { (try? client.get("/pong").status) == 204 }
            #expect(try client.get("/ping").status == 404)
            let health = try client.get("/__mock/health").text
            #expect(health.contains(#""succeeded":true"#))
        }
    }

    @Test func brokenContract_KeepsTheOldSet_ReportsEveryProblem_UntilFixed() async throws {
        let folder = try ScratchContracts(contracts: [("ping.json", Self.ping)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            let client = try RawClient(port: server.port)
            #expect(server.setScenario("down", for: "ping"))
            try folder.writeContract("ping.json", Self.ping.replacingOccurrences(of: #""status": 204"#, with: #""stauts": 204"#))
            let reload = try client.request("POST", "/__mock/reload")
            #expect(reload.status == 422)
            #expect(reload.text.contains(#""succeeded":false"#))
            #expect(reload.text.contains("stauts") && reload.text.contains("ping.json"))
            #expect(try client.get("/ping").status == 503, "the old set, with its override, is still served")
            #expect(try client.get("/__mock/health").text.contains("stauts"))

            try folder.writeContract("ping.json", Self.ping)
            let fixed = try client.request("POST", "/__mock/reload")
            #expect(fixed.status == 200)
            #expect(!(try client.get("/__mock/health").text.contains("stauts")))
            #expect(try client.get("/ping").status == 503, "the override carries over: its endpoint and scenario still exist")
        }
    }

    /// What a reload removed is forgotten, so it does not come back when the contract gets it back.
    @Test func reload_DropsOverridesAndStatesThatNoLongerExist() async throws {
        let stateful = Self.ping.replacingOccurrences(of: #""domain": "ping","#, with: #""domain": "ping", "states": ["up", "down"],"#)
            .replacingOccurrences(of: #""path": "/ping","#, with: #""path": "/ping", "whenState": {"down": "down"},"#)
        let folder = try ScratchContracts(contracts: [("ping.json", stateful)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            let client = try RawClient(port: server.port)
            let session = [MockHeader.session: "s"]
            #expect(server.setScenario("down", for: "ping", session: "s"))
            #expect(try client.request("PUT", "/__mock/states/ping?session=t", body: #"{"state": "down"}"#).status == 200)
            #expect(try client.get("/ping", headers: [MockHeader.session: "t"]).status == 503)

            // The scenario "down" and the states go away...
            try folder.writeContract("ping.json", Self.ping.replacingOccurrences(of: "\"down\"", with: "\"gone\""))
            #expect(server.reloadContracts().succeeded)
            #expect(try client.get("/ping", headers: session).status == 204)
            // ...and come back: the old override and state were forgotten, not kept aside.
            try folder.writeContract("ping.json", stateful)
            #expect(server.reloadContracts().succeeded)
            #expect(try client.get("/ping", headers: session).status == 204)
            #expect(try client.get("/ping", headers: [MockHeader.session: "t"]).status == 204)
            #expect(try client.get("/__mock/states?session=t").text.contains(#""state":"up""#))
        }
    }

    @Test func onReload_IsToldOfEveryOutcome() async throws {
        let folder = try ScratchContracts(contracts: [("ping.json", Self.ping)])
        let outcomes = Locked<[Bool]>([])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures,
                             configure: { configuration in
                                 configuration.onReload = { outcome in outcomes.withValue { $0.append(outcome.succeeded) } }
                             }) { server in
            try folder.writeContract("ping.json", "{")
            #expect(server.reloadContracts().problems.first?.reason.contains("not valid JSON") == true)
            try folder.writeContract("ping.json", Self.ping)
            server.reloadContracts()
            // The watcher may reload too; every outcome is told, the refused one included, the last a success.
            let told = outcomes.withValue { $0 }
            #expect(told.contains(false) && told.last == true, "\(told)")
        }
    }
}
