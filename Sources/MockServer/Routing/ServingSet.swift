import ContractModel
import HTTPCore

/// One loaded contract set as the server serves it, prepared once: routes, the router, each domain's
/// states. Immutable; a contract reload builds a new one and swaps it in whole (``ContractReloader``),
/// so a request is served by one set from start to end.
final class ServingSet: Sendable {
    let contracts: ContractSet
    let routes: [Route]
    let routesByID: [String: Route]
    let router: Router
    /// Each domain's states, the initial one first; domains without states are absent.
    let states: [String: [String]]
    /// Every method some endpoint takes, with HEAD and OPTIONS, for `OPTIONS *`.
    let serverMethods: String

    init(contracts: ContractSet, serverScenario: String?) {
        self.contracts = contracts
        var states: [String: [String]] = [:]
        for contract in contracts.contracts where !contract.states.isEmpty {
            states[contract.domain] = contract.states
        }
        self.states = states
        var resources: [String: Resource] = [:]
        for resource in contracts.contracts.flatMap(\.resources) { resources[resource.id] = resource }
        routes = contracts.endpoints.map { endpoint in
            Route(endpoint, serverScenario: serverScenario, domainStates: states[endpoint.domain] ?? [],
                  resource: endpoint.resource.flatMap { resources[$0.id] })
        }
        routesByID = Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        router = Router(routes: routes)
        var methods: [HTTPRequest.Method] = []
        for method in routes.map(\.method) + [.head, .options] where !methods.contains(method) {
            methods.append(method)
        }
        serverMethods = methods.map(\.rawValue).joined(separator: ", ")
    }
}
