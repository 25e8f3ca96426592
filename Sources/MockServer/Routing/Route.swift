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
    let method: HTTPRequest.Method
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
    /// The scenarios with a `when` and their compiled rules, in contract order: the first whose rules hold for a
    /// request plays.
    let ruleSets: [(play: ScenarioPlay, rules: CompiledRules)]
    /// The parts of a request the rules read, each once: a condition names its part by index here, and a request's
    /// ``RequestFacts`` looks each up once however many conditions read it.
    let ruleSources: [RuleCondition.Source]
    /// Whether ``ruleSets`` has any: a request to an endpoint without rules reads nothing of itself for them.
    let hasRules: Bool
    /// Whether every rule reads the target alone (query and path parameters): then the target decides which rule
    /// holds, and an event loop's ``TargetMemo`` keeps the answer.
    let rulesReadTargetOnly: Bool
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
    /// Whether a request may name its session with `?session=` as well as `X-Mock-Session`: a stream's endpoint,
    /// which a browser opens with `WebSocket` or `EventSource`, neither of which can set a header.
    let takesSessionQuery: Bool

    init(_ endpoint: ContractEndpoint, serverScenario: String?, domainStates: [String] = [], resource: Resource? = nil) {
        self.domainStates = domainStates
        takesSessionQuery = endpoint.isWebSocket || endpoint.scenarios.contains { $0.events != nil }
        self.resource = resource.flatMap { resource in endpoint.resource.map { (resource, $0.operation) } }
        self.endpoint = endpoint
        id = endpoint.id
        domain = endpoint.domain
        method = HTTPRequest.Method(rawValue: endpoint.method)
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
        var sources: [RuleCondition.Source] = []
        ruleSets = zip(endpoint.scenarios, plays).compactMap { scenario, play in
            guard !scenario.when.isEmpty else { return nil }
            return (play, CompiledRules(scenario.when, sources: &sources))
        }
        ruleSources = sources
        hasRules = !ruleSets.isEmpty
        rulesReadTargetOnly = sources.allSatisfy {
            switch $0 {
            case .query, .pathParameter: true
            case .header, .cookie, .body: false
            }
        }
        let serverPlay = plays.first { $0.name == serverScenario }
        defaultPlay = serverPlay ?? plays.first { !$0.hasRules }
        defaultReason = serverPlay == nil ? .first : .server
        stateScenarios = endpoint.whenState.compactMapValues { name in plays.first { $0.name == name } }
        defaultIsPlain = stateScenarios.isEmpty && !hasRules && defaultPlay.map { !$0.changesState } ?? false
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

    /// The first scenario, in contract order, with a `when` rule that holds for the request: its index in
    /// ``ruleSets`` and the rule's in its `when`.
    func firstHolding(_ facts: RequestFacts) -> (set: Int, rule: Int)? {
        for (index, set) in ruleSets.enumerated() {
            if let rule = set.rules.firstHolding(facts) { return (index, rule) }
        }
        return nil
    }
}
