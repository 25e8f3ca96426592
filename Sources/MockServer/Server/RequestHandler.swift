import ContractModel

/// Turns a parsed request into a ``Reply`` by contract: route, validate, pick the scenario, load the
/// fixture. Shared by every event loop; its state lives in thread-safe stores.
final class RequestHandler: Sendable {
    static let scenarioHeader = "X-Mock-Scenario"

    private let router: Router
    let scenarios: ScenarioStore
    let fixtures: FixtureStore
    let journal: Journal
    private let admin: AdminAPI

    init(contracts: ContractSet, serverScenario: String?, journalCapacity: Int) {
        router = Router(endpoints: contracts.endpoints)
        scenarios = ScenarioStore(endpoints: contracts.endpoints, serverDefault: serverScenario)
        fixtures = FixtureStore(root: contracts.fixturesDirectory)
        journal = Journal(capacity: journalCapacity)
        admin = AdminAPI(contracts: contracts, scenarios: scenarios, journal: journal)
    }

    func handle(_ request: HTTPRequest) -> Reply {
        guard let segments = PercentDecoding.segments(of: request.path) else {
            return .respond(ServerJSON.error(.badRequest, "the path has a malformed percent-escape"),
                            entry: entry(request, status: 400, violations: ["malformed percent-escape in path"]))
        }
        if segments.first == AdminAPI.prefix { return admin.handle(request, segments: Array(segments.dropFirst())) }

        switch router.match(method: request.method, segments: segments) {
        case .notFound:
            let response = ServerJSON.error(.notFound, "no endpoint serves \(request.method) \(request.path)")
            return .respond(response, entry: entry(request, status: 404))
        case .methodNotAllowed(let allow):
            let response = ServerJSON.error(.methodNotAllowed, "\(request.path) does not accept \(request.method)",
                                            headers: [("Allow", allow.joined(separator: ", "))])
            return .respond(response, entry: entry(request, status: 405))
        case .route(let route, let parameters):
            return reply(to: request, route: route, parameters: parameters)
        }
    }

    private func reply(to request: HTTPRequest, route: Route, parameters: [String: String]) -> Reply {
        let endpoint = route.endpoint
        let validation = RequestValidator.validate(request, against: route, parameters: parameters)
        if !validation.violations.isEmpty {
            let status: HTTPStatus = validation.unauthorized ? .unauthorized : .badRequest
            let response = ServerJSON.error(
                status, "the request breaks the contract of \(endpoint.id): " + validation.violations.joined(separator: "; "),
                violations: validation.violations,
                headers: validation.unauthorized ? [("WWW-Authenticate", "Bearer")] : [])
            return .respond(response, entry: entry(request, endpoint: endpoint, status: status.code,
                                                   violations: validation.violations))
        }

        let scenario: Scenario
        if let requested = request.headers[Self.scenarioHeader] {
            guard let found = endpoint.scenario(named: requested) else {
                let valid = endpoint.scenarios.map(\.name)
                let violation = "unknown scenario \"\(requested)\"; valid: " + valid.joined(separator: ", ")
                let response = ServerJSON.error(.badRequest, violation, validScenarios: valid)
                return .respond(response, entry: entry(request, endpoint: endpoint, status: 400,
                                                       violations: [violation]))
            }
            scenario = found
        } else {
            scenario = scenarios.active(for: endpoint)
        }
        return reply(to: request, route: route, scenario: scenario, parameters: parameters)
    }

    private func reply(
        to request: HTTPRequest,
        route: Route,
        scenario: Scenario,
        parameters: [String: String]
    ) -> Reply {
        let endpoint = route.endpoint
        var body: [UInt8] = []
        if let template = scenario.body {
            guard let path = FixturePath.resolve(template, parameters: parameters),
                  let bytes = fixtures.bytes(at: path)
            else {
                let response = ServerJSON.error(.notFound, "no fixture for \(request.method) \(request.path)",
                                                headers: [("X-Mock-Endpoint", endpoint.id)])
                return .respond(response, entry: entry(request, endpoint: endpoint, scenario: scenario.name,
                                                       status: 404), scenario: scenario.name)
            }
            body = bytes
        }
        let contentType = scenario.contentType ?? endpoint.contentType
        var reply: Reply
        if let fault = scenario.fault {
            reply = Reply(action: .fault(fault, body: body, contentType: contentType), holdMs: scenario.holdMs,
                          entry: entry(request, endpoint: endpoint, scenario: scenario.name, fault: fault.rawValue))
        } else {
            let prepared = route.prepared[scenario.name] ?? PreparedScenario(endpoint: endpoint, scenario: scenario)
            reply = .respond(prepared.response(body: body),
                             entry: entry(request, endpoint: endpoint, scenario: scenario.name,
                                          status: prepared.status.code))
        }
        reply.delayMs = scenario.delayMs
        reply.scenario = scenario.name
        return reply
    }

    private func entry(
        _ request: HTTPRequest,
        endpoint: ContractEndpoint? = nil,
        scenario: String? = nil,
        status: Int? = nil,
        fault: String? = nil,
        violations: [String] = []
    ) -> JournalEntry {
        JournalEntry(method: request.method, target: request.target, fields: request.headers.fields,
                     bodySize: request.body.count, endpoint: endpoint?.id, scenario: scenario, status: status,
                     fault: fault, violations: violations)
    }
}
