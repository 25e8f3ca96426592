#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore
import MockProtocol

/// The admin API under `/__mock/`: contracts and scenarios, domain states and sessions, reload, and
/// the request journal. JSON in and out; its own requests are not journaled. Calls that read or change
/// run-time state take `?session=<id>` (default: the session of requests without `X-Mock-Session`).
/// States, sessions and reload are in `AdminAPI+Sessions.swift`.
struct AdminAPI: Sendable {

    let contracts: ContractReloader
    let scenarios: ScenarioStore
    let resources: ResourceStore
    let journal: Journal
    /// The most bytes of events a `GET /__mock/events` reader gets in its first turn (half of it) and later
    /// ones (a thirty-second).
    let eventQueueLimit: Int
    /// What `GET /__mock/health` tells of the server besides its contracts.
    let facts: ServerFacts
    let conditions: ConditionsControl
    /// `--proxy`, whose recording `POST /__mock/record/flush` writes.
    let upstream: (any UpstreamRelay)?
    /// The drift check against `--proxy` (`POST /__mock/verify`).
    let driftCheck: (any DriftCheck)?
    /// The event streams open now (`GET /__mock/streams`, `POST /__mock/streams/{id}/send`).
    let openStreams: OpenStreams

    /// The routes and the methods each takes, for 405s and the 404's list.
    func handle(_ request: HTTPRequest, segments: [String]) -> Reply {
        let method: HTTPRequest.Method = request.isHead ? .get : request.method
        let query = request.queryItems ?? []
        let session = query.first { $0.name == "session" }?.value ?? SessionTable.defaultSession
        guard session.utf8.count <= SessionTable.maximumIDLength else {
            return .respond(ServerJSON.error(.badRequest, "session is longer than \(SessionTable.maximumIDLength) bytes"))
        }
        let serving = contracts.current
        let name = segments.count == 2 ? segments[1] : ""
        switch (method, segments.first ?? "", segments.count) {
        case ("GET", "health", 1):
            return health(serving)
        case ("GET", "contracts", 1):
            return json(.ok, listing(serving, session: session))
        case ("PUT", "scenarios", 2):
            return setScenario(name, body: request.body, session: session, serving)
        case ("DELETE", "scenarios", 2):
            do {
                try scenarios.reset(endpointID: name, session: session, in: serving)
            } catch {
                return unknownEndpoint(name)
            }
            return json(.ok, listing(serving, session: session).flatMap(\.endpoints).first { $0.id == name })
        case ("DELETE", "scenarios", 1):
            scenarios.resetScenarios(session: session)
            return json(.ok, listing(serving, session: session))
        case ("GET", "states", 1), ("PUT", "states", 2), ("DELETE", "states", 1), ("DELETE", "states", 2):
            return states(method, domain: segments.count == 2 ? name : nil, body: request.body, session: session, serving)
        case ("GET", "sessions", 1), ("DELETE", "sessions", 1), ("DELETE", "sessions", 2):
            return sessions(method, id: segments.count == 2 ? name : nil, serving)
        case ("GET", "resources", 2), ("DELETE", "resources", 1), ("DELETE", "resources", 2):
            return resourceCall(method, id: segments.count == 2 ? name : nil, session: query.first { $0.name == "session" }?.value,
                                serving)
        case ("GET", "conditions", 1), ("PUT", "conditions", 1), ("DELETE", "conditions", 1):
            return conditionsCall(method, body: request.body)
        case ("POST", "record", 2) where name == "flush":
            return .respond(RelayReplies.flushed(upstream?.flushRecording()))
        case ("GET", "streams", 1):
            return json(.ok, openStreams.listing())
        case ("POST", "streams", 3) where segments[2] == "send":
            return push(request.body, endpoint: segments[1], session: query.first { $0.name == "session" }?.value, serving)
        case ("POST", "verify", 1):
            return verify(options: request.body)
        case ("GET", "verify", 1):
            // No content until a check has run (POST runs one): not an error the dashboard would log on every load.
            guard let report = driftCheck?.lastReport else { return .respond(HTTPResponse(status: .noContent)) }
            return .respond(.json(.ok, report))
        case ("POST", "reload", 1):
            let outcome = contracts.reload()
            return json(outcome.succeeded ? .ok : .unprocessableContent, ReloadListing(outcome))
        case ("GET", "journal", 1):
            do {
                let filter = try JournalQuery.parse(endpoint: query.first { $0.name == "endpoint" }?.value,
                                                    limit: query.first { $0.name == "limit" }?.value,
                                                    session: query.first { $0.name == "session" }?.value)
                let entries = try filter.apply(to: journal.entries(), knownEndpoints: serving.routes.map(\.id))
                return .respond(.json(.ok, JournalEntry.jsonArray(entries)))
            } catch {
                return .respond(ServerJSON.error(.badRequest, error.description))
            }
        case ("GET", "events", 1):
            return events(request, query: query)
        case ("DELETE", "journal", 1):
            journal.clear()
            return .respond(HTTPResponse(status: .noContent))
        default:
            return routeError(method: method, segments: segments)
        }
    }

    /// `POST /__mock/streams/{id}/send[?session=]`: one event (`{"data": …, "event": …, "id": …}`) into every open
    /// event stream of the endpoint, or one message (`{"text": …}`, `{"json": …}`, `{"binary": "<base64>"}`) into
    /// every open WebSocket of a WebSocket endpoint; or only those of one session.
    private func push(_ body: [UInt8], endpoint: String, session: String?, _ serving: ServingSet) -> Reply {
        guard let route = serving.routesByID[endpoint] else { return unknownEndpoint(endpoint) }
        if route.endpoint.isWebSocket {
            let parsed = (try? JSONValue.parse(body)).map(WebSocketScript.Message.parse)
            guard case .success(let message)? = parsed else {
                var why = ""
                if case .failure(let problem)? = parsed { why = ": \(problem.at) \(problem.reason)" }
                return .respond(ServerJSON.error(.badRequest, #"the body is one message: {"text": "…"}, {"json": …} or "#
                    + #"{"binary": "<base64>"}"# + why))
            }
            let sent: Int = openStreams.send(WebSocketPlay.outgoing(message).message, endpoint: endpoint, session: session)
            return json(.ok, ["sent": sent])
        }
        guard let value = try? JSONValue.parse(body) else {
            return .respond(ServerJSON.error(.badRequest, #"the body is one event: {"data": "…", "event": "…", "id": "…"}"#))
        }
        switch ServerEvent.list(from: .array([value])) {
        case .failure(let problem):
            return .respond(ServerJSON.error(.badRequest, "the event\(problem.at.dropFirst(3)) \(problem.reason)"))
        case .success(let events):
            let sent: Int = openStreams.send(event: events[0].encoded(), endpoint: endpoint, session: session)
            return json(.ok, ["sent": sent])
        }
    }

    /// `POST /__mock/verify`: the drift check against the `--proxy` backend, answered when it is done (a pending reply:
    /// the event loop does not wait).
    private func verify(options: [UInt8]) -> Reply {
        guard let driftCheck else {
            return .respond(ServerJSON.error(.conflict, "the drift check runs against the backend given with --proxy <url>; "
                + "this server has none (or run `mock-server verify --target <url>`)"))
        }
        let pending = PendingReply(timeoutNanoseconds: driftCheck.timeoutNanoseconds)
        driftCheck.run(options: options) { result in
            switch result {
            case .success(let report):
                _ = pending.complete(.respond(.json(.ok, report)))
            case .failure(let failure):
                let status: HTTPStatus = switch failure.kind {
                case .options: .badRequest
                case .busy: .conflict
                case .contracts: .unprocessableContent
                }
                _ = pending.complete(.respond(ServerJSON.error(status, failure.message)))
            }
        }
        return Reply(.later(pending))
    }

    /// The journal as server-sent events, from now on; or, after `Last-Event-ID` (sent by a reconnecting
    /// `EventSource`) or `?after=<sequence>`, from the first kept entry after it.
    private func events(_ request: HTTPRequest, query: [(name: String, value: String)]) -> Reply {
        let after = request.headers["Last-Event-ID"] ?? query.first { $0.name == "after" }?.value
        var lastSeen: Int?
        if let after {
            guard let sequence = Int(after.trimmingSpaces()), sequence >= 0 else {
                return .respond(ServerJSON.error(.badRequest, "after must be a journal sequence number (0 or more), "
                                                     + "not \"\(after)\""))
            }
            lastSeen = sequence
        }
        // HEAD gets the head only: nothing to replay or subscribe.
        guard !request.isHead else { return Reply(.stream(EventStreamFormat.response, ReplyStream())) }
        return Reply(.stream(EventStreamFormat.response, journal.subscribe(after: lastSeen, limit: eventQueueLimit)))
    }

    // MARK: - Contracts and scenarios

    struct EndpointListing: Encodable {
        let id: String
        let method: String
        let path: String
        let scenarios: [String]
        /// The scenario a request without `X-Mock-Scenario` plays now (a sequence's name, not its step).
        let active: String
        /// Why: `override`, `state`, `server` or `first`; `when` (and ``active`` empty) when only a request's
        /// rules pick a scenario.
        let activeBecause: String
        /// The `when` of each scenario that has one, as the contract writes it.
        let when: [String: JSONValue]?
    }

    struct DomainListing: Encodable {
        let domain: String
        let file: String
        let states: [String]?
        let state: String?
        let endpoints: [EndpointListing]
        /// The ids of the resources the contract declares (`GET /__mock/resources/{id}` lists their items).
        let resources: [String]?
    }

    private func listing(_ serving: ServingSet, session: String) -> [DomainListing] {
        serving.contracts.contracts.map { contract in
            DomainListing(
                domain: contract.domain, file: contract.file, states: contract.states.isEmpty ? nil : contract.states,
                state: scenarios.currentState(domain: contract.domain, session: session, in: serving),
                endpoints: contract.endpoints.compactMap { serving.routesByID[$0.id] }.map { route in
                    let selection = try? scenarios.select(route, requested: nil, session: session, advancing: false)
                    let rules = route.endpoint.scenarios.filter { !$0.when.isEmpty }
                    return EndpointListing(id: route.id, method: route.method.rawValue, path: route.path.description,
                                           scenarios: route.plays.map(\.name), active: selection?.chosen.name ?? "",
                                           activeBecause: selection?.reason.rawValue ?? SelectionReason.when.rawValue,
                                           when: rules.isEmpty ? nil : Dictionary(uniqueKeysWithValues: rules.map {
                                               ($0.name, $0.when.count == 1 ? $0.when[0].json : .array($0.when.map(\.json)))
                                           }))
                },
                resources: contract.resources.isEmpty ? nil : contract.resources.map(\.id))
        }
    }

    private struct ScenarioChoice: Decodable {
        let scenario: String
    }

    private func setScenario(_ id: String, body: [UInt8], session: String, _ serving: ServingSet) -> Reply {
        guard let choice = try? JSONDecoder().decode(ScenarioChoice.self, from: Data(body)) else {
            return .respond(ServerJSON.error(.badRequest, #"expected a JSON body {"scenario": "<name>"}"#))
        }
        do {
            try scenarios.set(endpointID: id, scenario: choice.scenario, session: session, in: serving)
        } catch {
            return changeError(error, name: id)
        }
        return json(.ok, listing(serving, session: session).flatMap(\.endpoints).first { $0.id == id })
    }

    // MARK: - Errors and encoding

    func changeError(_ error: ScenarioStore.ChangeError, name: String) -> Reply {
        switch error {
        case .unknownEndpoint:
            return unknownEndpoint(name)
        case .unknownDomain(let known):
            let list = known.isEmpty ? "no contract declares states" : "domains with states: " + known.joined(separator: ", ")
            return .respond(ServerJSON.error(.notFound, "no domain \"\(name)\" with states; \(list)"))
        case .unknownName(let message, let valid):
            return .respond(ServerJSON.error(.badRequest, message, validScenarios: valid))
        }
    }

    private func unknownEndpoint(_ id: String) -> Reply {
        .respond(ServerJSON.error(.notFound, "no endpoint has the id \"\(id)\"; GET /__mock/contracts lists them"))
    }

    private func routeError(method: HTTPRequest.Method, segments: [String]) -> Reply {
        // The route's pattern: a name in the second place stands for `{id}` (`{domain}` under states).
        var pattern = segments
        if pattern.count >= 2 { pattern[1] = segments[0] == "states" ? "{domain}" : "{id}" }
        let shape = segments.count == 2 || (segments.count == 3 && segments[0] == "streams") ? pattern.joined(separator: "/")
            : segments.joined(separator: "/")
        if let route = AdminPath.routes.first(where: { $0.path == shape }) {
            return .respond(ServerJSON.error(.methodNotAllowed, AdminPath.path(segments.joined(separator: "/"))
                + " does not accept \(method)", headers: [("Allow", route.methods.joined(separator: ", "))]))
        }
        let available = AdminPath.routes.map { $0.methods.joined(separator: "|") + " " + AdminPath.path($0.path) }
        return .respond(ServerJSON.error(.notFound, "unknown admin route; available: "
            + available.joined(separator: ", ")))
    }

    func json(_ status: HTTPStatus, _ value: some Encodable) -> Reply {
        .respond(.json(status, ServerJSON.encode(value)))
    }
}
