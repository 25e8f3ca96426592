import HTTPCore

/// Every session's run-time state in one table: what ``ScenarioStore``, ``ResourceStore`` and ``RateLimiter``
/// keep per `X-Mock-Session`, so that a session is created, kept, listed, expired and dropped whole.
///
/// - Requests without `X-Mock-Session` share the default session, which never expires and is never listed.
/// - A named session exists once anything in it changed: an override, a domain state, a sequence position, a
///   template counter, a resource's items, a rate-limit window. Requests that change nothing leave no trace.
/// - A named session unused for ``idleTimeout`` is dropped; past ``maximumSessions`` the least recently used
///   tenth is dropped at once, so a flood of new ids costs one sort per thousand sessions, not a scan per request.
///
/// One lock guards every session; each store takes it once per request.
final class SessionTable: Sendable {
    /// The session of requests without `X-Mock-Session`.
    static let defaultSession = ""
    /// A session id longer than this is refused, so a client cannot fill memory with ids.
    static let maximumIDLength = MockHeader.maximumSessionLength
    /// Past this many named sessions the least recently used tenth is dropped.
    static let maximumSessions = 10_000

    /// One session's state, each part owned by the store that changes it.
    struct Record: Sendable {
        /// ``ScenarioStore``'s: overrides, domain states, sequence positions, template counters.
        var scenarios = SessionState()
        /// ``ResourceStore``'s: each resource's items, once changed in this session, by resource id.
        var collections: [String: ResourceStore.Collection] = [:]
        /// ``RateLimiter``'s: the open window of each endpoint limited per session, by endpoint id.
        var windows: [String: RateLimiter.Window] = [:]
        /// Monotonic time of the last request or admin call naming the session.
        fileprivate(set) var lastUsed: UInt64 = 0

        /// Whether nothing was changed: such a session behaves as the contracts say.
        var isPristine: Bool { scenarios.isPristine && collections.isEmpty && windows.isEmpty }
    }

    /// A named session as the admin API lists it.
    struct Listing {
        let id: String
        let idleSeconds: Int
        let record: Record
    }

    private struct State {
        /// Never `nil` but while ``withRecord(_:creating:_:)`` has it moved out.
        var main: Record? = Record()
        var named: [String: Record] = [:]
        var nextSweep: UInt64 = 0
    }

    private let state = Locked(State())
    /// Nanoseconds a named session may go unused before it is dropped.
    let idleTimeout: UInt64
    /// Monotonic nanoseconds; a test passes its own.
    let clock: @Sendable () -> UInt64

    init(idleSeconds: Double = 600, clock: @escaping @Sendable () -> UInt64 = { POSIX.monotonicNanoseconds() }) {
        // Clamped, so that any configured value (even infinity) fits in nanoseconds.
        idleTimeout = UInt64(min(max(idleSeconds, 0.001), 1e9) * 1e9)
        self.clock = clock
    }

    /// Runs `body` on the session's record: a fresh one if `creating`, else `nil` when the session does not
    /// exist. A named session's clock is set to now, and it is kept afterwards only if it holds something.
    func withRecord<T, E: Error>(_ id: String, creating: Bool, _ body: (inout Record?) throws(E) -> T) throws(E) -> T {
        if id == Self.defaultSession {
            return try state.withValue { state throws(E) in
                // Swapped out and back, so that `record` holds the only reference and changes in place, and no
                // empty record is made to stand in for it meanwhile.
                var record: Record? = nil
                swap(&record, &state.main)
                defer {
                    swap(&record, &state.main)
                    if state.main == nil { state.main = Record() }
                }
                return try body(&record)
            }
        }
        return try state.withValue { state throws(E) in
            // Read under the lock: a time read before it could be older than a `lastUsed` another thread set
            // meanwhile, and the unsigned difference would wrap into "idle for ages", dropping live sessions.
            let now = clock()
            if now >= state.nextSweep {
                state.named = state.named.filter { now &- $0.value.lastUsed < idleTimeout }
                state.nextSweep = now + min(idleTimeout, 10_000_000_000)
            }
            var record = state.named.removeValue(forKey: id).flatMap { now &- $0.lastUsed < idleTimeout ? $0 : nil }
                ?? (creating ? Record() : nil)
            record?.lastUsed = now
            defer {
                if let record, !record.isPristine {
                    if state.named.count >= Self.maximumSessions { Self.evictOldest(&state.named) }
                    state.named[id] = record
                }
            }
            return try body(&record)
        }
    }

    /// Whether the default session has an admin override for `endpointID`: the one question of the request path's
    /// fast lane (``ScenarioStore``), asked in place.
    @inline(__always)
    func mainOverrides(_ endpointID: String) -> Bool {
        // Read through the optional in place: binding the dictionary to a name retained and released it.
        state.withValue { state in
            state.main?.scenarios.overrides.isEmpty == false && state.main?.scenarios.overrides[endpointID] != nil
        }
    }

    private static func evictOldest(_ named: inout [String: Record]) {
        let oldest = named.sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(max(1, named.count / 10))
        for (id, _) in oldest { named[id] = nil }
    }

    // MARK: - Admin

    /// The named sessions, by id, with the seconds since each was last used.
    func list() -> [Listing] {
        state.withValue { state in
            let now = clock()
            return state.named.filter { now &- $0.value.lastUsed < idleTimeout }
                .map { Listing(id: $0.key, idleSeconds: Int((now &- $0.value.lastUsed) / 1_000_000_000), record: $0.value) }
                .sorted { $0.id < $1.id }
        }
    }

    /// Drops a named session whole; `false` when there is none by that id.
    func drop(_ id: String) -> Bool {
        state.withValue { state in
            guard let record = state.named.removeValue(forKey: id) else { return false }
            return clock() &- record.lastUsed < idleTimeout
        }
    }

    /// Drops every named session whole, and lets `resetMain` return the default one to where it starts.
    func dropAll(resettingMain resetMain: (inout Record) -> Void) {
        state.withValue { state in
            state.named = [:]
            var main = state.main ?? Record()
            resetMain(&main)
            state.main = main
        }
    }

    /// Runs `body` on every session's record, the default one's first, under one lock section (a reload, a
    /// reset of every session's items); records left pristine are dropped.
    func updateAll(_ body: (_ id: String, inout Record) -> Void) {
        state.withValue { state in
            var main = state.main ?? Record()
            body(Self.defaultSession, &main)
            state.main = main
            for id in Array(state.named.keys) {
                guard var record = state.named.removeValue(forKey: id) else { continue }
                body(id, &record)
                if !record.isPristine { state.named[id] = record }
            }
        }
    }
}
