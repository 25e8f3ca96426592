import ContractModel
import HTTPCore

/// Which scenario each endpoint plays when a request names none: the admin API's choice, else the
/// server-wide `--scenario`, else the endpoint's first scenario.
final class ScenarioStore: Sendable {
    private let endpoints: [String: ContractEndpoint]
    private let serverDefault: String?
    private let overrides = Locked<[String: String]>([:])

    init(endpoints: [ContractEndpoint], serverDefault: String?) {
        self.endpoints = Dictionary(endpoints.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.serverDefault = serverDefault
    }

    /// The scenario an endpoint plays now.
    func active(for endpoint: ContractEndpoint) -> Scenario {
        endpoint.scenarios[activeIndex(for: endpoint)]
    }

    /// The index in `endpoint.scenarios` of the scenario it plays now.
    func activeIndex(for endpoint: ContractEndpoint) -> Int {
        let scenarios = endpoint.scenarios
        if let name = overrides.withValue({ $0.isEmpty ? nil : $0[endpoint.id] }),
           let index = scenarios.firstIndex(where: { $0.name == name }) {
            return index
        }
        if let serverDefault, let index = scenarios.firstIndex(where: { $0.name == serverDefault }) { return index }
        return 0
    }

    enum SetError: Error, Equatable {
        case unknownEndpoint
        case unknownScenario(valid: [String])
    }

    /// Makes `scenario` the endpoint's active scenario until reset.
    func set(endpointID: String, scenario: String) throws(SetError) {
        guard let endpoint = endpoints[endpointID] else { throw .unknownEndpoint }
        guard endpoint.scenario(named: scenario) != nil else {
            throw .unknownScenario(valid: endpoint.scenarios.map(\.name))
        }
        overrides.withValue { $0[endpointID] = scenario }
    }

    /// Returns the endpoint to its default scenario; `false` when there is no such endpoint.
    @discardableResult
    func reset(endpointID: String) -> Bool {
        guard endpoints[endpointID] != nil else { return false }
        overrides.withValue { $0[endpointID] = nil }
        return true
    }

    func resetAll() {
        overrides.withValue { $0.removeAll() }
    }
}
