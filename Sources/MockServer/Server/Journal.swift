import ContractModel

/// One request as the server saw and answered it.
public struct JournalEntry: Sendable, Codable, Equatable {
    /// Increases by one per request, across clears.
    public internal(set) var sequence: Int
    /// ISO 8601, UTC, with milliseconds.
    public let time: String
    public let method: String
    public let target: String
    /// Header fields in arrival order, as `[name, value]` pairs.
    public let headers: [[String]]
    public let bodySize: Int
    /// The contract endpoint the request matched, if any.
    public let endpoint: String?
    /// The scenario played, if any.
    public let scenario: String?
    /// The status sent, or `nil` when a fault sent none.
    public let status: Int?
    /// The fault played, if any.
    public let fault: String?
    /// How the request broke its contract; empty when it conformed.
    public let violations: [String]

    /// The first value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.first?.lowercased() == name.lowercased() }?.last
    }
}

/// The last requests the server handled, in a bounded ring, for the admin API and for tests.
public final class Journal: Sendable {
    private struct Ring {
        var entries: [JournalEntry] = []
        var start = 0
        var nextSequence = 1
    }

    /// How many entries are kept; older ones are dropped.
    public let capacity: Int
    private let ring = Locked(Ring())

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The kept entries, oldest first.
    public func entries() -> [JournalEntry] {
        ring.withValue { ring in Array(ring.entries[ring.start...] + ring.entries[..<ring.start]) }
    }

    /// Forgets every entry (sequence numbers keep increasing).
    public func clear() {
        ring.withValue { ring in
            ring.entries.removeAll()
            ring.start = 0
        }
    }

    func append(_ entry: JournalEntry) {
        ring.withValue { ring in
            var entry = entry
            entry.sequence = ring.nextSequence
            ring.nextSequence += 1
            if ring.entries.count < capacity {
                ring.entries.append(entry)
            } else {
                ring.entries[ring.start] = entry
                ring.start = (ring.start + 1) % capacity
            }
        }
    }
}
