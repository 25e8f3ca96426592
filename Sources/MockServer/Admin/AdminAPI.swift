#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// The admin API under `/__mock/`: contracts and scenarios, the active scenario per endpoint, and the
/// request journal. JSON in and out; its own requests are not journaled.
struct AdminAPI: Sendable {
    static let prefix = "__mock"

    let contracts: ContractSet
    let scenarios: ScenarioStore
    let journal: Journal
    /// The most bytes of events that may wait for a slow `GET /__mock/events` reader before it is dropped.
    let eventQueueLimit: Int

    func handle(_ request: HTTPRequest, segments: [String]) -> Reply {
        let method = request.method == "HEAD" ? "GET" : request.method
        let route = segments.joined(separator: "/")
        let endpointID = segments.count == 2 && segments[0] == "scenarios" ? segments[1] : ""
        switch (method, route) {
        case ("GET", "health"):
            return json(.ok, Health(status: "ok", endpoints: contracts.endpoints.count))
        case ("GET", "contracts"):
            return json(.ok, listing())
        case ("PUT", _) where !endpointID.isEmpty:
            return setScenario(endpointID, body: request.body)
        case ("DELETE", _) where !endpointID.isEmpty:
            guard scenarios.reset(endpointID: endpointID) else { return unknownEndpoint(endpointID) }
            return json(.ok, listing().flatMap(\.endpoints).first { $0.id == endpointID })
        case ("DELETE", "scenarios"):
            scenarios.resetAll()
            return json(.ok, listing())
        case ("GET", "journal"):
            let items = PercentDecoding.queryItems(request.query) ?? []
            do {
                let query = try JournalQuery.parse(endpoint: items.first { $0.name == "endpoint" }?.value,
                                                   limit: items.first { $0.name == "limit" }?.value)
                return json(.ok, try query.apply(to: journal.entries(), knownEndpoints: contracts.endpoints.map(\.id)))
            } catch {
                return .respond(ServerJSON.error(.badRequest, error.description))
            }
        case ("GET", "events"):
            return events(request)
        case ("DELETE", "journal"):
            journal.clear()
            return .respond(HTTPResponse(status: .noContent))
        default:
            return routeError(method: method, segments: segments)
        }
    }

    /// The journal as server-sent events, from now on; or, after `Last-Event-ID` (sent by a reconnecting
    /// `EventSource`) or `?after=<sequence>`, from the first kept entry after it.
    private func events(_ request: HTTPRequest) -> Reply {
        let query = PercentDecoding.queryItems(request.query) ?? []
        let after = request.headers["Last-Event-ID"] ?? query.first { $0.name == "after" }?.value
        var lastSeen: Int?
        if let after {
            guard let sequence = Int(after.trimmingSpaces()), sequence >= 0 else {
                return .respond(ServerJSON.error(.badRequest, "after must be a journal sequence number (0 or more), "
                                                     + "not \"\(after)\""))
            }
            lastSeen = sequence
        }
        let stream = ReplyStream(limit: eventQueueLimit)
        // HEAD gets the head only: nothing to replay or subscribe.
        if request.method != "HEAD" { journal.subscribe(stream, after: lastSeen) }
        return Reply(.stream(EventStreamFormat.response, stream))
    }

    private struct Health: Encodable {
        let status: String
        let endpoints: Int
    }

    struct EndpointListing: Encodable {
        let id: String
        let method: String
        let path: String
        let scenarios: [String]
        let active: String
    }

    struct DomainListing: Encodable {
        let domain: String
        let file: String
        let endpoints: [EndpointListing]
    }

    private func listing() -> [DomainListing] {
        contracts.contracts.map { contract in
            DomainListing(domain: contract.domain, file: contract.file, endpoints: contract.endpoints.map { endpoint in
                EndpointListing(id: endpoint.id, method: endpoint.method, path: endpoint.path.description,
                                scenarios: endpoint.scenarios.map(\.name),
                                active: scenarios.activeName(endpointID: endpoint.id) ?? "")
            })
        }
    }

    private struct ScenarioChoice: Decodable {
        let scenario: String
    }

    private func setScenario(_ id: String, body: [UInt8]) -> Reply {
        guard let choice = try? JSONDecoder().decode(ScenarioChoice.self, from: Data(body)) else {
            return .respond(ServerJSON.error(.badRequest, #"expected a JSON body {"scenario": "<name>"}"#))
        }
        do {
            try scenarios.set(endpointID: id, scenario: choice.scenario)
        } catch {
            switch error {
            case .unknownEndpoint:
                return unknownEndpoint(id)
            case .unknownScenario(let message, let valid):
                return .respond(ServerJSON.error(.badRequest, message, validScenarios: valid))
            }
        }
        return json(.ok, listing().flatMap(\.endpoints).first { $0.id == id })
    }

    private func unknownEndpoint(_ id: String) -> Reply {
        .respond(ServerJSON.error(.notFound, "no endpoint has the id \"\(id)\"; GET /__mock/contracts lists them"))
    }

    private func routeError(method: String, segments: [String]) -> Reply {
        let known: [[String]: String] = [["health"]: "GET", ["contracts"]: "GET", ["journal"]: "GET, DELETE",
                                         ["events"]: "GET",
                                         ["scenarios"]: "DELETE"]
        let allow = segments.count == 2 && segments[0] == "scenarios" ? "PUT, DELETE" : known[segments]
        if let allow {
            return .respond(ServerJSON.error(.methodNotAllowed, "/__mock/\(segments.joined(separator: "/")) "
                                                 + "does not accept \(method)", headers: [("Allow", allow)]))
        }
        return .respond(ServerJSON.error(.notFound, "unknown admin route; available: GET /__mock/health, "
            + "GET /__mock/contracts, PUT|DELETE /__mock/scenarios/{id}, DELETE /__mock/scenarios, "
            + "GET|DELETE /__mock/journal, GET /__mock/events"))
    }

    private func json(_ status: HTTPStatus, _ value: some Encodable) -> Reply {
        .respond(.json(status, ServerJSON.encode(value)))
    }
}
