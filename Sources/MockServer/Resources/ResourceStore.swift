#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// The items of every resource, per session: each session's copy is made from the seed on first use,
/// so parallel tests never see each other's items. Sessions idle as long as ``ScenarioStore``'s are
/// dropped with their items, and past ``ScenarioStore/maximumSessions`` the least recently used tenth.
final class ResourceStore: Sendable {
    /// One resource's items in one session, in creation order.
    struct Collection: Sendable {
        /// A plain `didSet` (no `oldValue`) keeps changes in place (SE-0268).
        var items: [JSONValue] { didSet { changes &+= 1 } }
        /// The next integer id: one more than the largest ever held.
        var nextID: Int
        /// Counts changes to ``items``, so the store knows whether to write them.
        private(set) var changes = 0

        init(items: [JSONValue], nextID: Int) {
            self.items = items
            self.nextID = nextID
        }
    }

    private struct Session {
        var collections: [String: Collection] = [:]
        var lastUsed: UInt64 = 0
    }

    private struct State {
        var sessions: [String: Session] = [:]
        var nextSweep: UInt64 = 0
    }

    /// Where every session starts: the seeds, and for the default session what ``persistence`` kept.
    private struct Origins {
        var seeds: [String: [JSONValue]]
        var kept: [String: Collection]
    }

    private let state = Locked(State())
    private let origins: Locked<Origins>
    private let idleTimeout: UInt64
    let persistence: ResourcePersistence?

    init(seeds: [String: [JSONValue]], idleTimeout: UInt64, persistence: ResourcePersistence? = nil,
         kept: [String: Collection] = [:]) {
        origins = Locked(Origins(seeds: seeds, kept: kept))
        self.idleTimeout = idleTimeout
        self.persistence = persistence
    }

    /// Runs `body` on `resource`'s items in `session`, under the store's lock. When the default session's
    /// items change and are kept on disk, they are written before this returns.
    /// - Throws: The file system's error when they cannot be written; the change is then undone.
    func withCollection<T>(_ resource: Resource, session: String, _ body: (inout Collection) -> T) throws(FileError) -> T {
        let now = POSIX.monotonicNanoseconds()
        let keeps = persistence != nil && session == ScenarioStore.defaultSession
        return try state.withValue { state throws(FileError) in
            // Read under the state's lock (always taken first), so a reset or reload cannot slip in between.
            let (seed, kept) = origins.withValue { ($0.seeds[resource.id] ?? [], keeps ? $0.kept[resource.id] : nil) }
            // Idle sessions go now and then, as ScenarioStore's do; past its cap the oldest tenth goes at once.
            if now >= state.nextSweep {
                state.sessions = state.sessions.filter {
                    $0.key == ScenarioStore.defaultSession || now &- $0.value.lastUsed < idleTimeout
                }
                state.nextSweep = now + min(idleTimeout, 10_000_000_000)
            }
            if state.sessions[session] == nil && state.sessions.count >= ScenarioStore.maximumSessions {
                let oldest = state.sessions.filter { $0.key != ScenarioStore.defaultSession }
                    .sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(ScenarioStore.maximumSessions / 10)
                for (id, _) in oldest { state.sessions[id] = nil }
            }
            var current = state.sessions.removeValue(forKey: session) ?? Session()
            current.lastUsed = now
            // Moved out and back, so that the items have one owner and change in place, not copied per request.
            var collection = current.collections.removeValue(forKey: resource.id)
                ?? kept ?? Collection(items: seed, nextID: Self.nextID(after: seed, resource))
            defer {
                current.collections[resource.id] = collection
                state.sessions[session] = current
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
        state.withValue { state in
            if let persistence, session == nil || session == ScenarioStore.defaultSession {
                // The files are those read at start and those written since, by the default session.
                let written = state.sessions[ScenarioStore.defaultSession].map { Array($0.collections.keys) } ?? []
                let forgotten = origins.withValue { origins -> Set<String> in
                    let ids = Set(origins.kept.keys).union(written).filter { resourceID == nil || $0 == resourceID }
                    for id in ids { origins.kept[id] = nil }
                    return ids
                }
                for id in forgotten { persistence.remove(id) }
            }
            for id in state.sessions.keys where session == nil || id == session {
                if let resourceID {
                    state.sessions[id]?.collections[resourceID] = nil
                } else {
                    state.sessions[id]?.collections = [:]
                }
            }
        }
    }

    /// New seeds after a contract reload, and the default session's kept items read again, under the
    /// store's lock so that no write comes between the reading and the replacing; every session starts
    /// again from them.
    /// - Throws: The problems of a kept file that no longer fits `resources`; nothing is replaced then.
    func replaceOrigins(seeds: [String: [JSONValue]], resources: [Resource]) throws(ContractLoadError) {
        try state.withValue { state throws(ContractLoadError) in
            let kept = try persistence?.load(resources) ?? [:]
            origins.withValue { $0 = Origins(seeds: seeds, kept: kept) }
            state.sessions = [:]
        }
    }

    static func nextID(after items: [JSONValue], _ resource: Resource) -> Int {
        var largest = 0
        for case .object(let fields) in items {
            if case .number(let id)? = fields[resource.idField], id.rounded() == id, abs(id) < 1e15 { largest = max(largest, Int(id)) }
        }
        return largest + 1
    }
}
