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
    private let adminAccess: AdminAccess
    private let redaction: HeaderRedaction

    init(
        contracts: ContractSet,
        serverScenario: String?,
        journalCapacity: Int,
        adminAccess: AdminAccess,
        redaction: HeaderRedaction
    ) {
        self.adminAccess = adminAccess
        self.redaction = redaction
        router = Router(endpoints: contracts.endpoints)
        scenarios = ScenarioStore(endpoints: contracts.endpoints, serverDefault: serverScenario)
        fixtures = FixtureStore(root: contracts.fixturesDirectory)
        journal = Journal(capacity: journalCapacity)
        admin = AdminAPI(contracts: contracts, scenarios: scenarios, journal: journal)
    }

    /// - Parameter fromLoopback: Whether the peer is on this machine's loopback interface.
    func handle(_ request: HTTPRequest, fromLoopback: Bool) -> Reply {
        guard let segments = PercentDecoding.segments(of: request.path) else {
            return .respond(ServerJSON.error(.badRequest, "the path has a malformed percent-escape"),
                            entry: entry(request, status: 400, violations: ["malformed percent-escape in path"]))
        }
        if segments.first == AdminAPI.prefix {
            if let refusal = adminAccess.refusal(of: request, fromLoopback: fromLoopback) { return .respond(refusal) }
            return admin.handle(request, segments: Array(segments.dropFirst()))
        }

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
        let validation = RequestValidator.validate(request, against: route, parameters: parameters)
        if !validation.violations.isEmpty {
            let status: HTTPStatus = validation.unauthorized ? .unauthorized : .badRequest
            let response = ServerJSON.error(
                status, "the request breaks the contract of \(route.id): " + validation.violations.joined(separator: "; "),
                violations: validation.violations,
                headers: validation.unauthorized ? [("WWW-Authenticate", "Bearer")] : [])
            return .respond(response, entry: entry(request, endpoint: route.id, status: status.code,
                                                   violations: validation.violations))
        }

        let play: ScenarioPlay
        if let requested = request.headers[Self.scenarioHeader] {
            guard let found = route.play(named: requested) else {
                let valid = route.plays.map(\.name)
                let violation = "unknown scenario \"\(requested)\"; valid: " + valid.joined(separator: ", ")
                let response = ServerJSON.error(.badRequest, violation, validScenarios: valid)
                return .respond(response, entry: entry(request, endpoint: route.id, status: 400,
                                                       violations: [violation]))
            }
            play = found
        } else {
            play = route.plays[scenarios.activeIndex(for: route.endpoint)]
        }
        return reply(to: request, route: route, play: play, parameters: parameters)
    }

    private func reply(
        to request: HTTPRequest,
        route: Route,
        play: ScenarioPlay,
        parameters: [String: String]
    ) -> Reply {
        var body: [UInt8] = []
        if let template = play.fixture {
            guard let path = FixturePath.resolve(template, parameters: parameters),
                  let bytes = fixtures.bytes(at: path)
            else {
                let response = ServerJSON.error(.notFound, "no fixture for \(request.method) \(request.path)",
                                                headers: [("X-Mock-Endpoint", route.id)])
                return .respond(response, entry: entry(request, endpoint: route.id, scenario: play.name,
                                                       status: 404), scenario: play.name)
            }
            body = bytes
        }
        switch play.action {
        case .fault(let fault):
            return Reply(action: .fault(fault, body: body, contentType: play.contentType), delayMs: play.delayMs,
                         holdMs: play.holdMs,
                         entry: entry(request, endpoint: route.id, scenario: play.name, fault: fault.rawValue),
                         scenario: play.name)
        case .respond(let prepared):
            return Reply(action: .respond(prepared.response(body: body)), delayMs: play.delayMs,
                         entry: entry(request, endpoint: route.id, scenario: play.name,
                                      status: prepared.status.code),
                         scenario: play.name)
        }
    }

    private func entry(
        _ request: HTTPRequest,
        endpoint: String? = nil,
        scenario: String? = nil,
        status: Int? = nil,
        fault: String? = nil,
        violations: [String] = []
    ) -> JournalEntry {
        JournalEntry(method: request.method, target: request.target, fields: redaction.apply(request.headers.fields),
                     bodySize: request.body.count, endpoint: endpoint, scenario: scenario, status: status,
                     fault: fault, violations: violations)
    }
}
