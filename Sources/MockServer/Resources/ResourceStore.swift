#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// The items of every resource, per session: a session's copy is made from the seed on first use and kept
/// in the ``SessionTable`` once changed, so parallel tests never see each other's items, and a session's
/// items go when the session goes.
final class ResourceStore: Sendable {
    /// One resource's items in one session, in creation order.
    struct Collection: Sendable {
        /// A plain `didSet` (no `oldValue`) keeps changes in place (SE-0268).
        var items: [JSONValue] { didSet { changes &+= 1 } }
        /// The next integer id: one more than the largest ever held.
        var nextID: Int
        /// Counts changes to ``items``, so the store knows whether to keep and write them.
        private(set) var changes = 0
        /// Each item written as JSON, with its entity tag, as of ``changes`` == ``encodedAt``: a read of an item that
        /// has not changed writes nothing again.
        private var encoded: [EncodedItem?] = []
        /// The last list page written, as of ``changes`` == ``encodedAt``: the same page asked again is not written
        /// again.
        private var lastPage: (positions: [Int], bytes: [UInt8])?
        private var encodedAt = -1

        /// An item as a response carries it: its JSON, its entity tag, and the `ETag` field line that names the tag.
        struct EncodedItem: Sendable {
            let bytes: [UInt8]
            let tag: EntityTag
            let tagField: [UInt8]

            init(_ bytes: [UInt8]) {
                self.bytes = bytes
                tag = EntityTag(of: bytes)
                tagField = HTTPResponseEncoder.fields([(name: "ETag", value: tag.header)])
            }
        }

        init(items: [JSONValue], nextID: Int) {
            self.items = items
            self.nextID = nextID
        }

        /// The item at `index` written as JSON, with its entity tag: from the last read, unless an item changed since.
        mutating func encodedItem(at index: Int) -> EncodedItem {
            forgetEncodingsIfChanged()
            if let known = encoded[index] { return known }
            let written = EncodedItem(items[index].serialized)
            encoded[index] = written
            return written
        }

        /// The items at `positions` written as one JSON array: the last page again when it is asked again unchanged.
        mutating func page(at positions: [Int]) -> [UInt8] {
            forgetEncodingsIfChanged()
            if let lastPage, lastPage.positions == positions { return lastPage.bytes }
            var parts: [[UInt8]] = []
            parts.reserveCapacity(positions.count)
            for position in positions { parts.append(encodedItem(at: position).bytes) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(parts.reduce(2 + parts.count) { $0 + $1.count })
            bytes.append(UInt8(ascii: "["))
            for (number, part) in parts.enumerated() {
                if number > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += part
            }
            bytes.append(UInt8(ascii: "]"))
            lastPage = (positions, bytes)
            return bytes
        }

        private mutating func forgetEncodingsIfChanged() {
            guard encodedAt != changes || encoded.count != items.count else { return }
            encoded = Array(repeating: nil, count: items.count)
            lastPage = nil
            encodedAt = changes
        }
    }

    /// Where every session starts: the seeds, and for the default session what ``persistence`` kept.
    private struct Origins {
        var seeds: [String: [JSONValue]]
        var kept: [String: Collection]
        /// Each resource's collection as a session without changes sees it (its seed and next id), made once and kept
        /// with what reads wrote into it (the items' JSON): a read costs no scan for the next id and no writing.
        var fresh: [String: Collection] = [:]
    }

    let sessions: SessionTable
    private let origins: Locked<Origins>
    let persistence: ResourcePersistence?

    init(seeds: [String: [JSONValue]], sessions: SessionTable, persistence: ResourcePersistence? = nil,
         kept: [String: Collection] = [:]) {
        origins = Locked(Origins(seeds: seeds, kept: kept))
        self.sessions = sessions
        self.persistence = persistence
    }

    /// Runs `body` on `resource`'s items in `session`, under the session table's lock. When the default
    /// session's items change and are kept on disk, they are written before this returns.
    /// - Throws: The file system's error when they cannot be written; the change is then undone.
    func withCollection<T>(_ resource: Resource, session: String, _ body: (inout Collection) -> T) throws(FileError) -> T {
        let keeps = persistence != nil && session == SessionTable.defaultSession
        return try sessions.withRecord(session, creating: true) { record throws(FileError) in
            // Read under the table's lock (always taken first), so a reset or reload cannot slip in between.
            let (seeded, kept) = origins.withValue { origins -> (Collection, Collection?) in
                let kept = keeps ? origins.kept[resource.id] : nil
                if let fresh = origins.fresh[resource.id] { return (fresh, kept) }
                let seed = origins.seeds[resource.id] ?? []
                let made = Collection(items: seed, nextID: Self.nextID(after: seed, resource))
                origins.fresh[resource.id] = made
                return (made, kept)
            }
            // Moved out and back, so that the items have one owner and change in place, not copied per request.
            let own = record?.collections.removeValue(forKey: resource.id) ?? kept
            var collection = own ?? seeded
            defer {
                // Kept once changed (or kept on disk): reading a resource makes no session. An unchanged seed goes
                // back to the origins with what the read wrote into it.
                if collection.changes > 0 || kept != nil {
                    record?.collections[resource.id] = collection
                } else if own == nil {
                    origins.withValue { $0.fresh[resource.id] = collection }
                }
            }
            guard keeps, let persistence else { return body(&collection) }
            let before = collection
            let result = body(&collection)
            guard collection.changes != before.changes else { return result }
            do throws(FileError) {
                try persistence.save(collection, of: resource.id)
            } catch {
                collection = before
                throw error
            }
            return result
        }
    }

    /// `resource`'s items in `session`, as they are.
    func items(of resource: Resource, session: String) -> [JSONValue] {
        // Reading changes nothing, so nothing is written and nothing can fail.
        (try? withCollection(resource, session: session) { $0.items }) ?? []
    }

    /// Back to the seeds: one resource or every one, in one session or in all. Kept items of the default
    /// session are forgotten, on disk too.
    func reset(resourceID: String?, session: String?) {
        // One lock section: no write on another event loop can come between the files and the items.
        sessions.updateAll { id, record in
            if id == SessionTable.defaultSession, let persistence, session == nil || session == id {
                // The files are those read at start and those written since, by the default session.
                let written = Array(record.collections.keys)
                let forgotten = origins.withValue { origins -> Set<String> in
                    let ids = Set(origins.kept.keys).union(written).filter { resourceID == nil || $0 == resourceID }
                    for id in ids { origins.kept[id] = nil }
                    return ids
                }
                for id in forgotten { persistence.remove(id) }
            }
            guard session == nil || id == session else { return }
            if let resourceID {
                record.collections[resourceID] = nil
            } else {
                record.collections = [:]
            }
        }
    }

    /// New seeds after a contract reload, and the default session's kept items read again, under the
    /// table's lock so that no write comes between the reading and the replacing; every session starts
    /// again from them.
    /// - Throws: The problems of a kept file that no longer fits `resources`; nothing is replaced then.
    func replaceOrigins(seeds: [String: [JSONValue]], resources: [Resource]) throws(ContractLoadError) {
        var failure: ContractLoadError?
        sessions.updateAll { id, record in
            if id == SessionTable.defaultSession {
                do throws(ContractLoadError) {
                    let kept = try persistence?.load(resources) ?? [:]
                    origins.withValue { $0 = Origins(seeds: seeds, kept: kept) }
                } catch {
                    failure = error
                }
            }
            if failure == nil { record.collections = [:] }
        }
        if let failure { throw failure }
    }

    static func nextID(after items: [JSONValue], _ resource: Resource) -> Int {
        var largest = 0
        for case .object(let fields) in items {
            if case .number(let id)? = fields[resource.idField], id.rounded() == id, abs(id) < 1e15 { largest = max(largest, Int(id)) }
        }
        return largest + 1
    }
}
