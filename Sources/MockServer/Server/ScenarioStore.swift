import ContractModel
import HTTPCore

/// Which scenario each endpoint plays when a request names none: the admin API's choice, else the
/// route's default (the server-wide `--scenario`, else the endpoint's first scenario).
final class ScenarioStore: Sendable {
    private let routes: [String: Route]
    private let overrides = Locked<[String: ScenarioPlay]>([:])

    init(routes: [Route]) {
        self.routes = Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The scenario `route` plays now.
    func active(for route: Route) -> ScenarioPlay {
        overrides.withValue { $0.isEmpty ? nil : $0[route.id] } ?? route.defaultPlay
    }

    /// The name of the scenario endpoint `endpointID` plays now, if there is such an endpoint.
    func activeName(endpointID: String) -> String? {
        routes[endpointID].map { active(for: $0).name }
    }

    enum SetError: Error, Equatable {
        case unknownEndpoint
        /// The message names the scenarios that exist.
        case unknownScenario(message: String, valid: [String])
    }

    /// Makes `scenario` the endpoint's active scenario until reset.
    func set(endpointID: String, scenario: String) throws(SetError) {
        guard let route = routes[endpointID] else { throw .unknownEndpoint }
        guard let play = route.play(named: scenario) else {
            throw .unknownScenario(message: route.unknownScenario(scenario), valid: route.plays.map(\.name))
        }
        overrides.withValue { $0[endpointID] = play }
    }

    /// Returns the endpoint to its default scenario; `false` when there is no such endpoint.
    @discardableResult
    func reset(endpointID: String) -> Bool {
        guard routes[endpointID] != nil else { return false }
        overrides.withValue { $0[endpointID] = nil }
        return true
    }

    func resetAll() {
        overrides.withValue { $0.removeAll() }
    }
}
