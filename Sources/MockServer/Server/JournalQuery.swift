/// Which journal entries to read: those of one endpoint, the last few. Checked against the contracts,
/// so a typo is an error rather than an empty answer; the admin API (`GET /__mock/journal`) and
/// ``MockServer/journalEntries(_:)`` share it.
public struct JournalQuery: Sendable, Equatable {
    /// Only entries of this endpoint id.
    public var endpoint: String?
    /// Only the last this many (1 or more).
    public var limit: Int?
    /// Only entries of this `X-Mock-Session`; the empty string selects requests without one.
    public var session: String?

    /// A query for the entries of `endpoint`, the last `limit` of them, in `session`; `nil` leaves each open.
    public init(endpoint: String? = nil, limit: Int? = nil, session: String? = nil) {
        self.endpoint = endpoint
        self.limit = limit
        self.session = session
    }

    /// Why a query cannot be answered.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// No contract has this endpoint id; `known` lists the ids there are.
        case unknownEndpoint(String, known: [String])
        /// The limit given is not a whole number of 1 or more.
        case badLimit(String)

        public var description: String {
            switch self {
            case .unknownEndpoint(let id, let known):
                "no endpoint has the id \"\(id)\"; known: " + known.joined(separator: ", ")
            case .badLimit(let text):
                "limit must be a whole number of 1 or more, not \"\(text)\""
            }
        }
    }

    /// Reads a query string's `endpoint`, `limit` and `session`.
    static func parse(endpoint: String?, limit: String?, session: String? = nil) throws(Problem) -> JournalQuery {
        var query = JournalQuery(endpoint: endpoint, session: session)
        if let limit {
            guard let count = Int(limit), count >= 1 else { throw .badLimit(limit) }
            query.limit = count
        }
        return query
    }

    /// The matching entries of `entries`, oldest first.
    /// - Parameter knownEndpoints: Every endpoint id the server serves.
    func apply(to entries: [JournalEntry], knownEndpoints: [String]) throws(Problem) -> [JournalEntry] {
        var result = entries
        if let endpoint {
            guard knownEndpoints.contains(endpoint) else { throw .unknownEndpoint(endpoint, known: knownEndpoints) }
            result = result.filter { $0.endpoint == endpoint }
        }
        if let session {
            result = result.filter { ($0.session ?? "") == session }
        }
        if let limit {
            guard limit >= 1 else { throw .badLimit(String(limit)) }
            result = Array(result.suffix(limit))
        }
        return result
    }
}
