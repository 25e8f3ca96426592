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
    private let cors: CORSPolicy?
    /// Every method some endpoint takes, with HEAD and OPTIONS, for `OPTIONS *`.
    private let serverMethods: String

    init(
        contracts: ContractSet,
        serverScenario: String?,
        journalCapacity: Int,
        adminAccess: AdminAccess,
        redaction: HeaderRedaction,
        cors: CORSPolicy?
    ) {
        self.adminAccess = adminAccess
        self.redaction = redaction
        self.cors = cors
        var methods: [String] = []
        for method in contracts.endpoints.map(\.method) + ["HEAD", "OPTIONS"] where !methods.contains(method) {
            methods.append(method)
        }
        serverMethods = methods.joined(separator: ", ")
        router = Router(endpoints: contracts.endpoints)
        scenarios = ScenarioStore(endpoints: contracts.endpoints, serverDefault: serverScenario)
        fixtures = FixtureStore(root: contracts.fixturesDirectory)
        journal = Journal(capacity: journalCapacity)
        admin = AdminAPI(contracts: contracts, scenarios: scenarios, journal: journal)
    }

    /// - Parameter fromLoopback: Whether the peer is on this machine's loopback interface.
    func handle(_ request: HTTPRequest, fromLoopback: Bool) -> Reply {
        if request.method == "OPTIONS" && request.target == "*" {
            let response = HTTPResponse(status: .noContent, headers: [("Allow", serverMethods)])
            return .respond(response, entry: entry(request, status: 204))
        }
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
            let allowHeader = (allow + ["OPTIONS"]).joined(separator: ", ")
            if request.method == "OPTIONS" {
                if let preflight = cors?.preflight(request, allowedMethods: allow) {
                    return .respond(preflight, entry: entry(request, status: 204))
                }
                let response = HTTPResponse(status: .noContent, headers: [("Allow", allowHeader)])
                return .respond(response, entry: entry(request, status: 204))
            }
            let response = ServerJSON.error(.methodNotAllowed, "\(request.path) does not accept \(request.method)",
                                            headers: [("Allow", allowHeader)])
            return .respond(response, entry: entry(request, status: 405))
        case .route(let route, let parameters):
            let reply = reply(to: request, route: route, parameters: parameters)
            return cors.map { $0.decorate(reply, for: request) } ?? reply
        }
    }

    private func reply(to request: HTTPRequest, route: Route, parameters: [String: String]) -> Reply {
        // The scenario first, so that every answer for an endpoint names it, a refusal included.
        let play: ScenarioPlay
        if let requested = request.headers[Self.scenarioHeader] {
            guard let found = route.play(named: requested) else {
                let valid = route.plays.map(\.name)
                let violation = "unknown scenario \"\(requested)\"; valid: " + valid.joined(separator: ", ")
                let response = ServerJSON.error(.badRequest, violation, validScenarios: valid,
                                                headers: [(Self.endpointHeader, route.id)])
                return .respond(response, entry: entry(request, endpoint: route.id, status: 400,
                                                       violations: [violation]))
            }
            play = found
        } else {
            play = route.plays[scenarios.activeIndex(for: route.endpoint)]
        }

        let validation = RequestValidator.validate(request, against: route, parameters: parameters)
        if !validation.violations.isEmpty {
            let status: HTTPStatus = validation.unauthorized ? .unauthorized : .badRequest
            let response = ServerJSON.error(
                status, "the request breaks the contract of \(route.id): " + validation.violations.joined(separator: "; "),
                violations: validation.violations,
                headers: (validation.unauthorized ? [("WWW-Authenticate", "Bearer")] : []) + Self.names(route, play))
            return .respond(response, entry: entry(request, endpoint: route.id, scenario: play.name,
                                                   status: status.code, violations: validation.violations),
                            scenario: play.name)
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
            let lookup = FixturePath.resolve(template, parameters: parameters).map { fixtures.bytes(at: $0) }
                ?? .failure(.missing)
            switch lookup {
            case .success(let bytes):
                body = bytes
            case .failure(let unavailable):
                let response = ServerJSON.error(.notFound, "no fixture for \(request.method) \(request.path)",
                                                headers: Self.names(route, play))
                return .respond(response, entry: entry(request, endpoint: route.id, scenario: play.name,
                                                       status: 404, reason: unavailable.reason),
                                scenario: play.name)
            }
        }
        switch play.action {
        case .fault(let fault):
            return Reply(action: .fault(fault, body: body, head: play.faultHead), delayMs: play.delayMs,
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

    static let endpointHeader = "X-Mock-Endpoint"

    /// The headers that name what answered: every response for an endpoint carries them.
    private static func names(_ route: Route, _ play: ScenarioPlay) -> [(name: String, value: String)] {
        [(endpointHeader, route.id), (scenarioHeader, play.name)]
    }

    private func entry(
        _ request: HTTPRequest,
        endpoint: String? = nil,
        scenario: String? = nil,
        status: Int? = nil,
        fault: String? = nil,
        violations: [String] = [],
        reason: String? = nil
    ) -> JournalEntry {
        JournalEntry(method: request.method, target: request.target, fields: redaction.apply(request.headers.fields),
                     bodySize: request.body.count, endpoint: endpoint, scenario: scenario, status: status,
                     fault: fault, violations: violations, reason: reason)
    }
}
