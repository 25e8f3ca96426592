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
        var items: [JSONValue]
        /// The next integer id: one more than the largest ever held.
        var nextID: Int
    }

    private struct Session {
        var collections: [String: Collection] = [:]
        var lastUsed: UInt64 = 0
    }

    private struct State {
        var sessions: [String: Session] = [:]
        var nextSweep: UInt64 = 0
    }

    private let state = Locked(State())
    private let seeds: Locked<[String: [JSONValue]]>
    private let idleTimeout: UInt64

    init(seeds: [String: [JSONValue]], idleTimeout: UInt64) {
        self.seeds = Locked(seeds)
        self.idleTimeout = idleTimeout
    }

    /// Runs `body` on `resource`'s items in `session`, under the store's lock.
    func withCollection<T>(_ resource: Resource, session: String, _ body: (inout Collection) -> T) -> T {
        let now = POSIX.monotonicNanoseconds()
        let seed = seeds.withValue { $0[resource.id] } ?? []
        return state.withValue { state in
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
                ?? Collection(items: seed, nextID: Self.nextID(after: seed, resource))
            let result = body(&collection)
            current.collections[resource.id] = collection
            state.sessions[session] = current
            return result
        }
    }

    /// Back to the seeds: one resource or every one, in one session or in all.
    func reset(resourceID: String?, session: String?) {
        state.withValue { state in
            for id in state.sessions.keys where session == nil || id == session {
                if let resourceID {
                    state.sessions[id]?.collections[resourceID] = nil
                } else {
                    state.sessions[id]?.collections = [:]
                }
            }
        }
    }

    /// New seeds after a contract reload; every session starts again from them.
    func replaceSeeds(_ new: [String: [JSONValue]]) {
        seeds.withValue { $0 = new }
        state.withValue { $0.sessions = [:] }
    }

    private static func nextID(after items: [JSONValue], _ resource: Resource) -> Int {
        var largest = 0
        for case .object(let fields) in items {
            if case .number(let id)? = fields[resource.idField], id.rounded() == id, abs(id) < 1e15 { largest = max(largest, Int(id)) }
        }
        return largest + 1
    }
}
