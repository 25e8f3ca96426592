import ContractModel
import HTTPCore

/// One contract endpoint as the server serves it, prepared once at start-up so that a request costs
/// no sorting, no header encoding and no copy of the contract: the requirements in the order
/// violations are reported, and every scenario with its response head.
final class Route: Sendable {
    typealias Fields = [(name: String, type: FieldType)]

    let endpoint: ContractEndpoint
    let id: String
    let method: String
    let path: PathTemplate
    let pathParams: Fields
    let query: Fields
    let headers: Fields
    /// The endpoint's scenarios, in contract order.
    let plays: [ScenarioPlay]
    /// The scenario played when neither a request nor the admin API names one: the server-wide
    /// `--scenario` if the endpoint has it, else the first.
    let defaultPlay: ScenarioPlay

    init(_ endpoint: ContractEndpoint, serverScenario: String?) {
        self.endpoint = endpoint
        id = endpoint.id
        method = endpoint.method
        path = endpoint.path
        pathParams = Self.sorted(endpoint.request.pathParams)
        query = Self.sorted(endpoint.request.query)
        headers = Self.sorted(endpoint.request.headers)
        plays = endpoint.scenarios.map { ScenarioPlay($0, of: endpoint) }
        defaultPlay = plays.first { $0.name == serverScenario } ?? plays[0]
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
