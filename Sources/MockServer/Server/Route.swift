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

    init(_ endpoint: ContractEndpoint) {
        self.endpoint = endpoint
        id = endpoint.id
        method = endpoint.method
        path = endpoint.path
        pathParams = Self.sorted(endpoint.request.pathParams)
        query = Self.sorted(endpoint.request.query)
        headers = Self.sorted(endpoint.request.headers)
        plays = endpoint.scenarios.map { ScenarioPlay($0, of: endpoint) }
    }

    /// The scenario called `name`, if the endpoint has one.
    func play(named name: String) -> ScenarioPlay? {
        plays.first { $0.name == name }
    }

    /// Fields by name, so violations are always reported in the same order.
    static func sorted(_ fields: [String: FieldType]) -> Fields {
        fields.sorted { $0.key < $1.key }.map { (name: $0.key, type: $0.value) }
    }
}

/// What a request needs of one scenario, shared by reference so that playing it copies nothing.
final class ScenarioPlay: Sendable {
    let name: String
    /// The fixture path template, or `nil` for an empty body.
    let fixture: String?
    let contentType: String
    let action: Action
    /// The status line and fields a `truncated_body` fault sends before cutting the body short.
    let faultHead: [UInt8]
    let delayMs: Int
    let holdMs: Int

    enum Action: Sendable {
        /// An ordinary response, its head encoded ahead of time.
        case respond(PreparedScenario)
        case fault(Fault)
    }

    init(_ scenario: Scenario, of endpoint: ContractEndpoint) {
        name = scenario.name
        fixture = scenario.body
        contentType = scenario.contentType ?? endpoint.contentType
        action = scenario.fault.map(Action.fault) ?? .respond(PreparedScenario(endpoint: endpoint, scenario: scenario))
        faultHead = HTTPResponseEncoder.statusAndFields(.ok, [
            ("Content-Type", contentType), ("Cache-Control", "no-store"),
            ("X-Mock-Endpoint", endpoint.id), ("X-Mock-Scenario", scenario.name),
        ])
        delayMs = scenario.delayMs
        holdMs = scenario.holdMs
    }

    /// What `fault` does on the wire; `fixture` is the body a `truncated_body` cuts short.
    func transport(_ fault: Fault, fixture: [UInt8]) -> TransportAction {
        switch fault {
        case .connectionReset:
            return .reset
        case .emptyResponse:
            return .close
        case .malformedResponse:
            return .sendThenClose(Array("HELLO GARBAGE \u{1}\u{2}\r\nthis is not HTTP\r\n\r\n".utf8))
        case .truncatedBody:
            // Half the fixture, under a length that promises at least twice as much.
            let response = HTTPResponse(status: .ok, head: faultHead, body: Array(fixture.prefix(fixture.count / 2)))
            return .truncate(response, announcedLength: max(fixture.count, 64) * 2)
        case .noResponse:
            return .hold(milliseconds: holdMs)
        }
    }
}
