import ContractModel

/// One contract endpoint as the server serves it, prepared once at start-up so that a request costs
/// no sorting and no header encoding: the requirements in the order violations are reported, and
/// every scenario's response head.
final class Route: Sendable {
    typealias Fields = [(name: String, type: FieldType)]

    let endpoint: ContractEndpoint
    let pathParams: Fields
    let query: Fields
    let headers: Fields
    /// The encoded response heads of the scenarios without a fault, by scenario name.
    let prepared: [String: PreparedScenario]

    init(_ endpoint: ContractEndpoint) {
        self.endpoint = endpoint
        pathParams = Self.sorted(endpoint.request.pathParams)
        query = Self.sorted(endpoint.request.query)
        headers = Self.sorted(endpoint.request.headers)
        var prepared: [String: PreparedScenario] = [:]
        for scenario in endpoint.scenarios where scenario.fault == nil {
            prepared[scenario.name] = PreparedScenario(endpoint: endpoint, scenario: scenario)
        }
        self.prepared = prepared
    }

    /// Fields by name, so violations are always reported in the same order.
    static func sorted(_ fields: [String: FieldType]) -> Fields {
        fields.sorted { $0.key < $1.key }.map { (name: $0.key, type: $0.value) }
    }
}
