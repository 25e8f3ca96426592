import ContractModel
import HTTPCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Domain states, sessions, reload status and health.
extension AdminAPI {
    struct StateListing: Encodable {
        let domain: String
        let states: [String]
        let state: String
    }

    private struct StateChoice: Decodable {
        let state: String
    }

    /// `GET /__mock/states`, `PUT|DELETE /__mock/states/{domain}`, `DELETE /__mock/states`.
    func states(_ method: HTTPRequest.Method, domain: String?, body: [UInt8], session: String, _ serving: ServingSet) -> Reply {
        do {
            switch (method, domain) {
            case ("PUT", let domain?):
                guard let choice = try? JSONDecoder().decode(StateChoice.self, from: Data(body)) else {
                    return .respond(ServerJSON.error(.badRequest, #"expected a JSON body {"state": "<name>"}"#))
                }
                try scenarios.setState(domain: domain, to: choice.state, session: session, in: serving)
            case ("DELETE", let domain):
                try scenarios.resetState(domain: domain, session: session, in: serving)
            default:
                break
            }
        } catch {
            return changeError(error, name: domain ?? "")
        }
        let listing = serving.states.keys.sorted().map { domain in
            StateListing(domain: domain, states: serving.states[domain] ?? [],
                         state: scenarios.currentState(domain: domain, session: session, in: serving) ?? "")
        }
        if let domain { return json(.ok, listing.first { $0.domain == domain }) }
        return json(.ok, listing)
    }

    struct SessionListing: Encodable {
        let id: String
        let idleSeconds: Int
        /// Domain states set in the session (by a scenario or the admin API).
        let states: [String: String]
        /// Scenario overrides by endpoint id.
        let scenarios: [String: String]
        /// How many items each resource changed in the session holds, by resource id.
        let resources: [String: Int]
        /// Endpoints whose rate limit counts this session's requests in an open window.
        let rateLimited: [String]

        init(_ listing: SessionTable.Listing, now: UInt64) {
            id = listing.id
            idleSeconds = listing.idleSeconds
            states = listing.record.scenarios.states
            scenarios = listing.record.scenarios.overrides
            resources = listing.record.collections.mapValues(\.items.count)
            rateLimited = listing.record.windows.filter { !$0.value.hasEnded(at: now) }.keys.sorted()
        }
    }

    /// `GET /__mock/sessions`, `DELETE /__mock/sessions/{id}`, `DELETE /__mock/sessions`.
    func sessions(_ method: HTTPRequest.Method, id: String?, _ serving: ServingSet) -> Reply {
        switch (method, id) {
        case ("DELETE", let id?):
            guard scenarios.sessions.drop(id) else {
                return .respond(ServerJSON.error(.notFound, "no session \"\(id)\"; GET /__mock/sessions lists them"))
            }
            return .respond(HTTPResponse(status: .noContent))
        case ("DELETE", nil):
            // The default session's scenarios start over too; its resource items stay (DELETE /__mock/resources).
            scenarios.sessions.dropAll { $0.scenarios = SessionState() }
            return .respond(HTTPResponse(status: .noContent))
        default:
            let now = scenarios.sessions.clock()
            return json(.ok, scenarios.sessions.list().map { SessionListing($0, now: now) })
        }
    }

    struct ProblemListing: Encodable {
        let file: String
        let path: String
        let subject: String?
        let reason: String
    }

    struct ReloadListing: Encodable {
        let succeeded: Bool
        let time: String
        let endpoints: Int
        let problems: [ProblemListing]

        init(_ outcome: ReloadOutcome) {
            succeeded = outcome.succeeded
            time = HTTPDate.iso8601(seconds: outcome.seconds, milliseconds: 0)
            endpoints = outcome.endpoints
            problems = outcome.problems.map {
                ProblemListing(file: $0.file, path: $0.path, subject: $0.subject, reason: $0.reason)
            }
        }
    }

    private struct Health: Encodable {
        let status: String
        let endpoints: Int
        let sessions: Int
        /// The last contract reload; absent before the first.
        let lastReload: ReloadListing?
        let version: String
        /// `host:port` as bound.
        let address: String
        let startedAt: String?
        let uptimeSeconds: Int?
        let contractsDirectory: String
        let fixturesDirectory: String
        /// Requests journaled since the start (clearing the journal does not reset it).
        let requests: Int
    }

    /// `GET /__mock/resources/{id}` (the items, in the request's session), `DELETE /__mock/resources/{id}` and
    /// `DELETE /__mock/resources` (back to the seeds: in one session with `?session=`, else in all).
    func resourceCall(_ method: HTTPRequest.Method, id: String?, session: String?, _ serving: ServingSet) -> Reply {
        let declared = serving.contracts.contracts.flatMap(\.resources)
        let resource = id.flatMap { id in declared.first { $0.id == id } }
        if let id, resource == nil {
            return .respond(ServerJSON.error(.notFound, "no resource \"\(id)\"; resources: "
                + (declared.isEmpty ? "none" : declared.map(\.id).joined(separator: ", "))))
        }
        if method == "DELETE" {
            resources.reset(resourceID: id, session: session)
            return .respond(HTTPResponse(status: .noContent))
        }
        guard let resource else { return .respond(HTTPResponse(status: .noContent)) }
        let items = resources.items(of: resource, session: session ?? SessionTable.defaultSession)
        return .respond(.json(.ok, JSONValue.array(items).serialized))
    }

    func health(_ serving: ServingSet) -> Reply {
        let started = facts.started.current
        return json(.ok, Health(
            status: "ok", endpoints: serving.routes.count, sessions: scenarios.sessions.list().count,
            lastReload: contracts.last.map(ReloadListing.init), version: MockServer.version,
            address: facts.address.current, startedAt: started.map { HTTPDate.iso8601(seconds: $0.wall, milliseconds: 0) },
            uptimeSeconds: started.map { Int((POSIX.monotonicNanoseconds() - $0.monotonic) / 1_000_000_000) },
            contractsDirectory: facts.contractsDirectory, fixturesDirectory: facts.fixturesDirectory,
            requests: journal.lastSequence))
    }
}

/// Facts about the running server for `GET /__mock/health`, set when it starts.
final class ServerFacts: Sendable {
    let contractsDirectory: String
    let fixturesDirectory: String
    /// Wall-clock seconds and the monotonic clock at start.
    let started = Locked<(wall: Int, monotonic: UInt64)?>(nil)
    let address = Locked("")

    init(contractsDirectory: String, fixturesDirectory: String) {
        self.contractsDirectory = contractsDirectory
        self.fixturesDirectory = fixturesDirectory
    }

    func didStart(address: String) {
        started.withValue { $0 = (POSIX.wallClock().seconds, POSIX.monotonicNanoseconds()) }
        self.address.withValue { $0 = address }
    }
}
