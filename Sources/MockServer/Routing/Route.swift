import ContractModel
import HTTPCore

/// One contract endpoint as the server serves it, prepared once at start-up so that a request costs
/// no sorting, no header encoding and no copy of the contract: the requirements in the order
/// violations are reported, and every scenario with its response head.
final class Route: Sendable {
    typealias Fields = [(name: String, type: FieldType)]

    let endpoint: ContractEndpoint
    let id: String
    let domain: String
    let method: String
    let path: PathTemplate
    /// Whether ``path`` has a parameter segment: a request for a template without one has no parameters to read.
    let hasPathParameters: Bool
    let pathParams: Fields
    let query: Fields
    /// ``query``'s names, prepared for the request path (see ``RequestValidator``).
    let queryNames: QueryNames
    let headers: Fields
    /// The endpoint's scenarios, in contract order.
    let plays: [ScenarioPlay]
    /// The scenarios with a `when`, in contract order: the first whose rules hold for a request plays.
    let rulePlays: [ScenarioPlay]
    /// Whether ``rulePlays`` has any: a request to an endpoint without rules reads nothing of itself for them.
    let hasRules: Bool
    /// The scenario played when neither a request, the admin API, a `when` rule nor the domain's state names
    /// one: the server-wide `--scenario` if the endpoint has it, else the first scenario without `when`; `nil`
    /// when every scenario has a `when` (a request none holds for then gets a near-miss 404).
    let defaultPlay: ScenarioPlay?
    /// Why ``defaultPlay`` is the default: ``Selection/Reason/server`` (`--scenario`) or ``Selection/Reason/first``.
    let defaultReason: Selection.Reason
    /// The scenario to play in each state of the domain that names one (`whenState`).
    let stateScenarios: [String: ScenarioPlay]
    /// Whether a request without `X-Mock-Scenario` plays ``defaultPlay`` unless the admin API overrides it,
    /// and changes nothing by playing it: no rule or state picks the scenario, and it is no sequence or template.
    let defaultIsPlain: Bool

    /// The domain's states, the initial one first; empty when it declares none.
    let domainStates: [String]
    /// For an operation of a resource: the resource, whose store answers the `store` scenario.
    let resource: (resource: Resource, operation: ResourceOperation)?

    init(_ endpoint: ContractEndpoint, serverScenario: String?, domainStates: [String] = [], resource: Resource? = nil) {
        self.domainStates = domainStates
        self.resource = resource.flatMap { resource in endpoint.resource.map { (resource, $0.operation) } }
        self.endpoint = endpoint
        id = endpoint.id
        domain = endpoint.domain
        method = endpoint.method
        path = endpoint.path
        hasPathParameters = endpoint.path.segments.contains { if case .parameter = $0 { true } else { false } }
        pathParams = Self.sorted(endpoint.request.pathParams)
        query = Self.sorted(endpoint.request.query)
        queryNames = QueryNames(query.map(\.name))
        headers = Self.sorted(endpoint.request.headers)
        // Ordinary scenarios first, so that each sequence holds its steps.
        var ordinary: [String: ScenarioPlay] = [:]
        for scenario in endpoint.scenarios where scenario.sequence == nil {
            ordinary[scenario.name] = ScenarioPlay(scenario, of: endpoint)
        }
        let plays = endpoint.scenarios.map { scenario in
            ordinary[scenario.name] ?? ScenarioPlay(sequence: scenario, of: endpoint,
                                                    steps: scenario.sequence?.steps.compactMap { ordinary[$0] } ?? [])
        }
        self.plays = plays
        rulePlays = plays.filter { $0.rules != nil }
        hasRules = !rulePlays.isEmpty
        let serverPlay = plays.first { $0.name == serverScenario }
        defaultPlay = serverPlay ?? plays.first { $0.rules == nil }
        defaultReason = serverPlay == nil ? .first : .server
        stateScenarios = endpoint.whenState.compactMapValues { name in plays.first { $0.name == name } }
        defaultIsPlain = stateScenarios.isEmpty && rulePlays.isEmpty && defaultPlay.map { !$0.changesState } ?? false
    }

    /// The domain's state given the one a session has set: that one if the contracts declare it, else the
    /// initial state (also for a state left from a set that a reload replaced).
    func state(_ set: String?) -> String? {
        set.flatMap { domainStates.contains($0) ? $0 : nil } ?? domainStates.first
    }

    /// The scenario called `name`, if the endpoint has one.
    func play(named name: String) -> ScenarioPlay? {
        plays.first { $0.name == name }
    }

    /// Why `name` names no scenario of this endpoint, listing those that exist.
    func unknownScenario(_ name: String) -> String {
        "unknown scenario \"\(name)\" for \(id); valid: " + plays.map(\.name).joined(separator: ", ")
    }

    /// Fields by name, so violations are always reported in the same order.
    static func sorted(_ fields: [String: FieldType]) -> Fields {
        fields.sorted { $0.key < $1.key }.map { (name: $0.key, type: $0.value) }
    }
}
