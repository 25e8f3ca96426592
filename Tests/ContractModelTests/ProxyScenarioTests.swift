import ContractModel
import Testing

/// `"proxy": true` on a scenario: the request passes through to the backend given with `--proxy`.
struct ProxyScenarioTests {
    private func contract(_ scenario: String) -> [String: String] {
        ["p.json": """
            {"domain": "p", "endpoints": [{"id": "items", "method": "GET", "path": "/items",
              "scenarios": [{"name": "mocked", "status": 200, "body": "ok.json", "expect": "success"}, \(scenario)]}]}
            """]
    }

    @Test func proxyScenario_Loads_WithAWaitAndAnExpectation() throws {
        #expect(try loadProblems(contracts: contract(#"{"name": "live", "proxy": true, "delayMs": 5, "expect": "success"}"#))
            .isEmpty)
    }

    @Test(arguments: ["status", "body", "fault", "headers"])
    func proxyScenario_WithPartsOfAnAnswer_IsRefused(key: String) throws {
        let value = ["status": "200", "body": #""ok.json""#, "fault": #""connection_reset""#, "headers": #"{"X": "y"}"#][key] ?? ""
        let problems = try loadProblems(contracts: contract(#"{"name": "live", "proxy": true, "expect": "success", "\#(key)": \#(value)}"#))
        #expect(problems.count == 1)
        #expect(problems.first?.path.hasSuffix("." + key) == true)
        #expect(problems.first?.reason.contains("relays the backend's answer") == true)
    }

    @Test func proxyFlag_MustBeABoolean() throws {
        let problems = try loadProblems(contracts: contract(#"{"name": "live", "proxy": "yes", "status": 200, "expect": "success"}"#))
        #expect(problems.contains { $0.path.hasSuffix(".proxy") })
    }
}
