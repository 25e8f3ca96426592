import ContractModel
import HTTPCore
import MockProtocol

/// Turns a parsed request into a ``Reply`` by contract: route, validate, pick the scenario, load the
/// fixture; journals each request on arrival and logs each reply. Shared by every event loop; its
/// state lives in thread-safe stores.
///
/// Rules of the request path in this folder. Each journal entry is built by one initializer
/// (``entry(_:endpoint:selection:status:fault:violations:reason:delayMs:)``), with every fact known on arrival a
/// constant of ``JournalEntry``; set after it are only the sequence number the journal gives it, its head's storage
/// (swapped for the journal's own, ``JournalEntry/keep(in:)``), a relayed request's ``JournalEntry/proxied``, and
/// what the sent reply tells (``Journal/complete(_:responseHead:responseLength:bytesSent:durationNanoseconds:)``).
/// The facts a plain request has none of (a body, violations, a fault, a reason, a sequence's step, a rule, a delay)
/// live out of line, in ``JournalEntry/Details``. The journal's JSON is written by hand (JournalEntry+JSON.swift) and
/// must decode to the same entry, and be the same object, as the `Encodable` form: a test checks it
/// (`JournalTests.handWrittenJSON_DecodesToTheSameEntry_AsTheEncodableForm`), so a field added to one goes into the
/// other too.
/// Measure a change to this path with `Tests/Benchmarks/instructions.sh` before and after; figures go to
/// Tests/Benchmarks/HISTORY.md, not here.
final class RequestHandler: HTTPResponder {
    let contracts: ContractReloader
    let scenarios: ScenarioStore
    let fixtures: FixtureStore
    let bodies: ResponseBodies
    private let resources: ResourceResponder
    /// Every session's resource items (``MockServer/resetResources(session:)``).
    let resourceStore: ResourceStore
    let journal: Journal
    /// The event streams open now, for pushes from tests and the dashboard.
    let openStreams = OpenStreams()
    private let admin: AdminAPI
    let facts: ServerFacts
    let adminAccess: AdminAccess
    let redaction: HeaderRedaction
    let bodyRedaction: BodyRedaction
    private let cors: CORSPolicy?
    let log: AccessLog
    let latency: LatencySampler
    /// `--bandwidth`: the pace of every body whose scenario sets none.
    let serverBandwidth: Bandwidth?
    private let rateLimiter: RateLimiter
    private let conditions: ConditionsControl
    /// `--proxy`: where unmatched requests and pass-through scenarios go.
    let upstream: (any UpstreamRelay)?
    /// ``upstream`` when `--proxy-fallback` sends it the requests an endpoint matches but cannot answer.
    let fallback: (any UpstreamRelay)?
    /// What the journal says of a request sent to ``upstream`` (the only backend: `--proxy`, `--proxy-fallback` and
    /// `"proxy": true` all send to it), made once.
    let proxiedReason: String
    let mockNames = MockHeader.PreparedNames()
    let webSocketLimits: WebSocketLimits
    /// Each serving thread's memo (an event loop's) of what methods and targets decide: the route, the path's and the
    /// query's violations.
    private static let memos = PerThread { TargetMemo() }

    init(contracts: ContractSet, configuration: MockServer.Configuration, adminAccess: AdminAccess,
         persistence: ResourcePersistence?, kept: [String: ResourceStore.Collection]) {
        log = AccessLog(format: configuration.logFormat)
        latency = LatencySampler(server: configuration.latency, seed: configuration.seed)
        serverBandwidth = configuration.bandwidth
        self.adminAccess = adminAccess
        redaction = HeaderRedaction(extraNames: configuration.redactedHeaders, enabled: !configuration.journalSecrets)
        bodyRedaction = BodyRedaction(enabled: !configuration.journalSecrets)
        cors = configuration.cors
        webSocketLimits = configuration.webSocketLimits
        let sessions = SessionTable(idleSeconds: configuration.sessionIdleTimeout)
        scenarios = ScenarioStore(sessions: sessions)
        rateLimiter = RateLimiter(sessions: sessions)
        let store = ResourceStore(seeds: contracts.seeds, sessions: sessions, persistence: persistence, kept: kept)
        self.contracts = ContractReloader(contracts: contracts, configuration: configuration, scenarios: scenarios,
                                          resources: store)
        fixtures = FixtureStore(root: contracts.fixturesDirectory)
        bodies = ResponseBodies(fixtures: fixtures)
        resources = ResourceResponder(store: store)
        resourceStore = store
        journal = Journal(capacity: configuration.journalCapacity)
        facts = ServerFacts(contractsDirectory: configuration.contractsDirectory,
                            fixturesDirectory: configuration.fixturesDirectory)
        conditions = ConditionsControl(initial: configuration.conditions)
        upstream = configuration.upstream
        fallback = configuration.proxyFallback ? configuration.upstream : nil
        proxiedReason = "proxied to " + (configuration.upstream?.target ?? "")
        admin = AdminAPI(contracts: self.contracts, scenarios: scenarios, resources: store, journal: journal,
                         eventQueueLimit: configuration.eventQueueLimit, facts: facts, conditions: conditions,
                         upstream: configuration.upstream, driftCheck: configuration.driftCheck,
                         openStreams: openStreams)
    }

    func reject(_ status: HTTPStatus, reason: String) -> Reply {
        let entry = JournalEntry(method: "-", target: "-", fields: [], bodySize: 0, endpoint: nil, scenario: nil,
                                 status: status.code, fault: nil, violations: [], reason: reason)
        return journaled(.respond(ServerJSON.error(status, reason)), entry)
    }

    func respond(to request: HTTPRequest, peerIsLoopback fromLoopback: Bool) -> Reply {
        let serving = contracts.currentChecked()
        // The target first: it is one byte, where comparing the method (most often another) calls into the runtime.
        if request.isAsteriskForm && request.method == .options {
            let response = HTTPResponse(status: .noContent, headers: [("Allow", serving.serverMethods)])
            return journaled(response, entry(request, status: 204))
        }
        // What the method and target decide, if this loop has seen them for this contract set.
        let memo = Self.memos.value
        if let memo, let verdict = TargetMemo.Key.with(request, { memo.verdict(for: $0, in: serving) }) {
            return respond(to: request, verdict: verdict)
        }
        // The closure sees only what it needs: one that captured the request copied it, field by field.
        let router = serving.router
        let method = request.method
        var routed = Routed.malformed
        _ = PathSegments.with(pathOf: request) { segments in
            if let first = segments.first, PathSegments.equal(first, AdminPath.segment) {
                routed = .admin(segments.dropFirst().map(PathSegments.text))
            } else {
                routed = .match(router.match(method: method, segments: segments))
            }
        }
        switch consume routed {
        case .malformed:
            return journaled(ServerJSON.error(.badRequest, "the path has a malformed percent-escape"),
                             entry(request, status: 400, violations: ["malformed percent-escape in path"]))
        case .admin(let rest):
            // The dashboard's files hold no secret: the same Host and Origin checks, but no token.
            let page = Dashboard.serves(rest)
            if let refusal = adminAccess.refusal(of: request, fromLoopback: fromLoopback, requiringToken: !page) {
                return .respond(refusal)
            }
            return page ? Dashboard.reply(to: request, segments: rest) : admin.handle(request, segments: rest)
        case .match(let match):
            var violations: [String] = []
            if case .route(let route, let parameters) = match {
                violations = RequestValidator.targetViolations(of: request, against: route, parameters: parameters)
            }
            guard let memo else { return respond(to: request, verdict: .init(match: match, violations: violations)) }
            let verdict = TargetMemo.Key.with(request) { memo.remember(match, violations: violations, for: $0, in: serving) }
            return respond(to: request, verdict: verdict)
        }
    }

    /// Where a request's path leads: the admin API (with the segments after its prefix) or the router's match; nowhere
    /// for a path with a malformed percent-escape, which is not split into segments. (That, the value before the path
    /// is split, has no payload to release when it is replaced, where a `.match(.notFound)` there went through the
    /// outlined destroy of a router match for every request.)
    private enum Routed {
        case malformed
        case admin([String])
        case match(Router.Match)
    }

    private func respond(to request: HTTPRequest, verdict: TargetMemo.Verdict) -> Reply {
        switch verdict.match {
        case .notFound:
            if let upstream { return proxied(request, via: upstream) }
            let response = ServerJSON.error(.notFound, "no endpoint serves \(request.method) \(request.path)")
            return journaled(response, entry(request, status: 404))
        case .methodNotAllowed(let allow):
            let allowHeader = (allow + [.options]).map(\.rawValue).joined(separator: ", ")
            if request.method == .options {
                if let preflight = cors?.preflight(request, allowedMethods: allow) {
                    return journaled(preflight, entry(request, status: 204))
                }
                let response = HTTPResponse(status: .noContent, headers: [("Allow", allowHeader)])
                return journaled(response, entry(request, status: 204))
            }
            if let fallback {
                return proxied(request, via: fallback, why: "no endpoint takes \(request.method) \(request.path)")
            }
            let response = ServerJSON.error(.methodNotAllowed, "\(request.path) does not accept \(request.method)",
                                            headers: [("Allow", allowHeader)])
            return journaled(response, entry(request, status: 405))
        case .route(let route, let parameters):
            let reply = answer(to: request, route: route, parameters: parameters, verdict: verdict)
            return cors.map { $0.decorate(reply, for: request) } ?? reply
        }
    }

    private func answer(to request: HTTPRequest, route: Route, parameters: [String: String],
                        verdict: TargetMemo.Verdict) -> Reply {
        let targetViolations = verdict.violations
        // The scenario first, so that every answer for an endpoint names it, a refusal included.
        var requested: ScenarioPlay?
        if let name = request.headers[mockNames.scenario] {
            guard let found = route.play(named: name) else {
                let violation = route.unknownScenario(name)
                let response = ServerJSON.error(.badRequest, violation, validScenarios: route.plays.map(\.name),
                                                headers: [(MockHeader.endpoint, route.id)])
                return journaled(response, entry(request, endpoint: route.id, status: 400, violations: [violation]))
            }
            requested = found
        }
        let session = request.headers[mockNames.session]
            ?? (route.takesSessionQuery ? request.queryItems?.first { $0.name == "session" }?.value : nil)
            ?? SessionTable.defaultSession
        guard session.utf8.count <= SessionTable.maximumIDLength else {
            let violation = "header \(MockHeader.session) is longer than \(SessionTable.maximumIDLength) bytes"
            let response = ServerJSON.error(.badRequest, violation, headers: [(MockHeader.endpoint, route.id)])
            return journaled(response, entry(request, endpoint: route.id, status: 400, violations: [violation]))
        }

        // The scenario a `when` rule picks, for an endpoint with rules and a request that names none itself.
        let ruled = route.hasRules && requested == nil ? ruleMatch(request, route: route, parameters: parameters,
                                                                   verdict: verdict) : nil
        let validation = RequestValidator.validate(request, against: route, targetViolations: targetViolations)
        // A request whose only fault is a missing bearer token, which a rule for exactly that answers (a recording's
        // refusal), gets that rule's scenario; the violation is journaled all the same.
        let answeredRefusal = !validation.violations.isEmpty && Self.ruleAnswersRefusal(validation, ruled, of: route)
        if !validation.violations.isEmpty && !answeredRefusal {
            let named = try? scenarios.select(route, requested: requested, session: session, advancing: false, ruled: ruled)
            let status: HTTPStatus = validation.unauthorized ? .unauthorized : .badRequest
            let response = ServerJSON.error(
                status, "the request breaks the contract of \(route.id): " + validation.violations.joined(separator: "; "),
                violations: validation.violations,
                headers: (validation.unauthorized ? [MockHeader.bearerChallenge] : [])
                    + MockHeader.naming(endpoint: route.id, scenario: named?.play.name))
            return journaled(response, entry(request, endpoint: route.id, selection: named, status: status.code,
                                             violations: validation.violations),
                             scenario: named?.play.name)
        }
        var profile = conditions.current
        if let name = request.headers[mockNames.conditions] {
            guard let named = conditions.profile(named: name) else {
                let violation = "header \(MockHeader.conditions): no condition profile \"\(name)\"; profiles: " + conditions.names
                let response = ServerJSON.error(.badRequest, violation, headers: [(MockHeader.endpoint, route.id)])
                return journaled(response, entry(request, endpoint: route.id, status: 400, violations: [violation]))
            }
            profile = named
        }
        var limitFields: [(name: String, value: String)] = []
        if let limit = route.endpoint.rateLimit {
            let admission = rateLimiter.admit(limit, endpoint: route.id, session: session)
            limitFields = RateLimitHeaders.fields(admission)
            guard admission.allowed else {
                let named = try? scenarios.select(route, requested: requested, session: session, advancing: false,
                                             ruled: ruled)
                let reason = "rate limit: more than \(limit.limit) requests in \(limit.windowSeconds) s "
                    + (limit.scope == .global ? "to \(route.id)" : "to \(route.id) in this session")
                let response = ServerJSON.error(.tooManyRequests, reason, headers: RateLimitHeaders.retryAfter(admission, limit)
                    + limitFields + MockHeader.naming(endpoint: route.id, scenario: named?.play.name))
                return journaled(response, entry(request, endpoint: route.id, selection: named, status: 429, reason: reason),
                                 scenario: named?.play.name)
            }
        }
        // HEAD asks what a GET would get without being one: it moves no sequence, state or counter.
        let selection: Selection
        do {
            selection = try scenarios.select(route, requested: requested, session: session, advancing: !request.isHead,
                                             ruled: ruled)
        } catch {
            return noScenarioApplies(to: request, route: route, parameters: parameters)
        }
        var reply = answeredRefusal
            ? answer(to: request, route: route, selection: selection, parameters: parameters, profile: profile,
                     memo: verdict, violations: validation.violations)
            : answer(to: request, route: route, selection: selection, parameters: parameters, profile: profile,
                     memo: verdict)
        reply.addFields(limitFields)
        return reply
    }

    /// - Parameter violations: How the request broke its contract when a rule answers it anyway (a missing token a
    ///   recorded refusal answers), for its journal entry.
    private func answer(
        to request: HTTPRequest,
        route: Route,
        selection: Selection,
        parameters: [String: String],
        profile: ConditionProfile?,
        memo: TargetMemo.Verdict,
        violations: [String] = []
    ) -> Reply {
        let play = selection.play
        // A condition profile's failures come before anything is served or stored: the network lost it.
        if let profile, latency.chance(profile.failurePercent) {
            let delay = latency.delay(fixed: profile.bandwidth?.latencyMs ?? 0, latency: nil, extra: profile.latency)
            let reason = "conditions \(profile.name): \(profile.failurePercent)% of requests fail with \(profile.fault.rawValue)"
            let action = profile.fault.transport(head: Self.failureHead, holdMs: 0, fixture: [])
            return journaled(Reply(.transport(action), delayMs: delay, note: .init(source: play.name, outcome: .fault(profile.fault.rawValue))),
                             entry(request, endpoint: route.id, selection: selection, fault: profile.fault,
                                   reason: reason, delayMs: delay))
        }
        if let (resource, operation) = route.resource, play.name == Resource.storeScenario {
            let response = resources.respond(operation, of: resource, request: request, itemID: parameters["id"],
                                             session: selection.session,
                                             endpoint: route.id, scenario: play.name, namingFields: play.namingFields)
            // The server's and the profile's latency and bandwidth apply to the store's answers as to any other.
            let (reply, delay) = conditioned(response, play: play, profile: profile)
            return journaled(reply, entry(request, endpoint: route.id, selection: selection, status: response.status.code,
                                          delayMs: delay))
        }
        var body: [UInt8] = []
        if play.fixture != nil {
            switch bodies.body(for: play, request: request, parameters: parameters, counter: selection.counter,
                               memo: memo) {
            case .success(let bytes):
                body = bytes
            case .failure(.noFixture(let reason)):
                if let fallback {
                    return proxied(request, via: fallback, endpoint: route.id, selection: selection,
                                   why: "no fixture for \(request.method) \(request.path) (\(reason))")
                }
                let response = ServerJSON.error(.notFound, "no fixture for \(request.method) \(request.path)",
                                                headers: MockHeader.naming(endpoint: route.id, scenario: play.name))
                return journaled(response, entry(request, endpoint: route.id, selection: selection, status: 404,
                                                 reason: reason),
                                 scenario: play.name)
            case .failure(.template(let message)):
                let response = ServerJSON.error(.internalServerError, message,
                                                headers: MockHeader.naming(endpoint: route.id, scenario: play.name))
                return journaled(response, entry(request, endpoint: route.id, selection: selection, status: 500,
                                                 reason: message),
                                 scenario: play.name)
            }
        }
        switch play.action {
        case .fault(let fault, let head, let holdMs):
            let delay = latency.delay(fixed: play.delayMs, latency: play.latency, extra: profile?.latency)
            let reply = Reply(.transport(fault.transport(head: head, holdMs: holdMs, fixture: body)),
                              delayMs: delay, note: .init(source: play.name, outcome: .fault(fault.rawValue)))
            return journaled(reply, entry(request, endpoint: route.id, selection: selection, fault: fault,
                                          delayMs: delay))
        case .respond(let status, let headWithBody, let headWithoutBody):
            let response = HTTPResponse(status: status, head: body.isEmpty ? headWithoutBody : headWithBody, body: body)
            let (reply, delay) = conditioned(response, play: play, profile: profile)
            return journaled(reply, entry(request, endpoint: route.id, selection: selection, status: status.code,
                                          violations: violations, delayMs: delay))
        case .proxy:
            let delay = latency.delay(fixed: play.delayMs, latency: play.latency, extra: profile?.latency)
            guard let upstream else {
                // Only a contract reloaded after start can get here: one with "proxy" does not load without --proxy.
                let reason = "scenario \(play.name) of \(route.id) passes through to the backend, but the server was "
                    + "started without --proxy <url>"
                let response = ServerJSON.error(.badGateway, reason,
                                                headers: MockHeader.naming(endpoint: route.id, scenario: play.name))
                return journaled(response, entry(request, endpoint: route.id, selection: selection, status: 502,
                                                 reason: reason),
                                 scenario: play.name)
            }
            return proxied(request, via: upstream, endpoint: route.id, selection: selection, delayMs: delay)
        case .events(let events):
            let (status, script) = (events.status, events.script)
            let delay = latency.delay(fixed: play.delayMs, latency: play.latency, extra: profile?.latency)
            let response = HTTPResponse(status: status, head: events.head, body: [])
            switch self.events(script, templates: events.templates, request: request, play: play, parameters: parameters,
                          counter: selection.counter, delayMs: delay, endpoint: route.id, session: selection.session) {
            case .success(let playing):
                let reply = Reply(playing.map { .stream(response, $0.stream) } ?? .respond(response), delayMs: delay,
                                  note: .init(source: play.name))
                defer { playing?.start() }
                return journaled(reply, entry(request, endpoint: route.id, selection: selection, status: status.code,
                                              delayMs: delay))
            case .failure(.noFixture(let reason)):
                let response = ServerJSON.error(.notFound, "no events fixture for \(request.method) \(request.path)",
                                                headers: MockHeader.naming(endpoint: route.id, scenario: play.name))
                return journaled(response, entry(request, endpoint: route.id, selection: selection, status: 404,
                                                 reason: reason), scenario: play.name)
            case .failure(.template(let message)):
                let response = ServerJSON.error(.internalServerError, message,
                                                headers: MockHeader.naming(endpoint: route.id, scenario: play.name))
                return journaled(response, entry(request, endpoint: route.id, selection: selection, status: 500,
                                                 reason: message), scenario: play.name)
            }
        case .webSocket(let script):
            let delay = latency.delay(fixed: play.delayMs, latency: play.latency, extra: profile?.latency)
            return upgrade(request, to: script, route: route, selection: selection, delayMs: delay)
        case .sequence:
            // ScenarioStore.select never returns a sequence as the play.
            let response = ServerJSON.error(.internalServerError, "sequence \(play.name) has no steps")
            return journaled(response, entry(request, endpoint: route.id, selection: selection, status: 500))
        }
    }

    /// The head a `truncated_body` failure announces.
    private static let failureHead = HTTPResponseEncoder.statusAndFields(.ok, [("Content-Type", "application/json")])
}
