import ContractModel
import HTTPCore

/// Which scenario each request plays, and everything that changes it at run time, per session: admin
/// overrides, domain states, sequence positions and template counters (``SessionState``).
///
/// Requests without `X-Mock-Session` share the default session, which never expires. A named session
/// is kept once a request or an admin call changes something in it, and dropped after ``idleTimeout``
/// without either.
/// One lock guards every session; a request takes it once, in ``select(_:requested:session:advancing:)``.
final class ScenarioStore: Sendable {
    /// The session of requests without `X-Mock-Session`.
    static let defaultSession = ""
    /// A session id longer than this is refused, so a client cannot fill memory with ids.
    static let maximumIDLength = 128
    /// Past this many sessions the least recently used tenth is dropped.
    static let maximumSessions = 10_000

    private struct State {
        var main = SessionState(now: 0)
        var named: [String: SessionState] = [:]
        var nextSweep: UInt64 = 0
    }

    private let state = Locked(State())
    /// Nanoseconds a named session may go unused before it is dropped.
    let idleTimeout: UInt64
    /// Monotonic nanoseconds; a test passes its own.
    private let clock: @Sendable () -> UInt64

    init(idleSeconds: Double = 600, clock: @escaping @Sendable () -> UInt64 = { POSIX.monotonicNanoseconds() }) {
        // Clamped, so that any configured value (even infinity) fits in nanoseconds.
        idleTimeout = UInt64(min(max(idleSeconds, 0.001), 1e9) * 1e9)
        self.clock = clock
    }

    // MARK: - Requests

    /// The scenario `route` plays for a request in `session`.
    /// - Parameters:
    ///   - requested: The scenario the request's `X-Mock-Scenario` names, if any.
    ///   - advancing: Whether the request is answered by the scenario, so that a sequence moves on, the
    ///     domain takes the scenario's state and a template's counter counts; `false` only names it (for a
    ///     request refused before it is played).
    func select(_ route: Route, requested: ScenarioPlay?, session: String, advancing: Bool) -> Selection {
        // The common case, the default session playing a scenario that changes nothing, takes at most one
        // look-up under the lock and copies no session state.
        if session == Self.defaultSession, let plain = plainSelection(route, requested: requested) { return plain }
        let id = session
        return withSession(session, creating: advancing) { session in
            let (chosen, reason) = Self.choose(route, requested: requested, in: session ?? SessionState(now: 0))
            var play = chosen
            var step: Int?
            if case .sequence(let steps, let sequence) = chosen.action, !steps.isEmpty {
                let key = SessionState.SequenceKey(endpoint: route.id, scenario: chosen.name)
                let position = session?.positions[key] ?? 0
                let index = sequence.stepIndex(at: position)
                play = steps[index]
                step = index + 1
                if advancing { session?.positions[key] = sequence.position(after: position) }
            }
            var counter = 0
            if advancing {
                if let target = play.setState { session?.states[route.domain] = target }
                if play.isTemplate {
                    counter = (session?.counters[route.id] ?? 0) + 1
                    session?.counters[route.id] = counter
                }
            }
            return Selection(chosen: chosen, play: play, reason: reason, step: step, counter: counter, session: id)
        }
    }

    /// The selection for the default session when it is simply the requested scenario, or the route's
    /// default with no override, and playing it changes nothing; `nil` when the full rules must run.
    private func plainSelection(_ route: Route, requested: ScenarioPlay?) -> Selection? {
        if let requested {
            guard !requested.changesState else { return nil }
            return Selection(chosen: requested, play: requested, reason: .header, step: nil, counter: 0,
                             session: Self.defaultSession)
        }
        guard route.defaultIsPlain, state.withValue({ $0.main.overrides.isEmpty || $0.main.overrides[route.id] == nil })
        else { return nil }
        return Selection(chosen: route.defaultPlay, play: route.defaultPlay, reason: route.defaultReason, step: nil,
                         counter: 0, session: Self.defaultSession)
    }

    /// Precedence: the request's header, the admin override, the state's scenario, `--scenario`, the first.
    private static func choose(_ route: Route, requested: ScenarioPlay?, in session: SessionState)
        -> (ScenarioPlay, Selection.Reason)
    {
        if let requested { return (requested, .header) }
        if !session.overrides.isEmpty, let name = session.overrides[route.id], let play = route.play(named: name) {
            return (play, .override)
        }
        if !route.stateScenarios.isEmpty, let state = route.state(session.states[route.domain]),
           let play = route.stateScenarios[state] {
            return (play, .state)
        }
        return (route.defaultPlay, route.defaultReason)
    }

    /// Runs `body` on the session's state: created if `creating`, else `nil` when the session does not
    /// exist. A named session's clock is set to now, and expired sessions are swept now and then.
    private func withSession<T>(_ id: String, creating: Bool, _ body: (inout SessionState?) -> T) -> T {
        if id == Self.defaultSession {
            return state.withValue { state in
                // Moved out and back, so that `session` holds the only reference and changes in place.
                var session: SessionState? = state.main
                state.main = SessionState(now: 0)
                defer { state.main = session ?? SessionState(now: 0) }
                return body(&session)
            }
        }
        let now = clock()
        return state.withValue { state in
            if now >= state.nextSweep {
                state.named = state.named.filter { now &- $0.value.lastUsed < idleTimeout }
                state.nextSweep = now + min(idleTimeout, 10_000_000_000)
            }
            var session = state.named.removeValue(forKey: id).flatMap { now &- $0.lastUsed < idleTimeout ? $0 : nil }
                ?? (creating ? SessionState(now: now) : nil)
            session?.lastUsed = now
            let result = body(&session)
            // A session is kept once it holds something: requests that change nothing leave no trace.
            if let session, !session.isPristine {
                if state.named.count >= Self.maximumSessions { Self.evictOldest(&state.named) }
                state.named[id] = session
            }
            return result
        }
    }

    /// Drops the least recently used tenth of the sessions at once, so a flood of new ids costs one sort
    /// per thousand sessions, not a scan per request.
    private static func evictOldest(_ named: inout [String: SessionState]) {
        let oldest = named.sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(max(1, named.count / 10))
        for (id, _) in oldest { named[id] = nil }
    }

    // MARK: - Admin

    enum ChangeError: Error, Equatable {
        case unknownEndpoint
        case unknownDomain(known: [String])
        /// The message names the scenarios (or states) that exist.
        case unknownName(message: String, valid: [String])
    }

    /// Makes `scenario` the endpoint's scenario in `session` until reset; the endpoint's sequences start over.
    func set(endpointID: String, scenario: String, session: String, in serving: ServingSet) throws(ChangeError) {
        guard let route = serving.routesByID[endpointID] else { throw .unknownEndpoint }
        guard route.play(named: scenario) != nil else {
            throw .unknownName(message: route.unknownScenario(scenario), valid: route.plays.map(\.name))
        }
        withSession(session, creating: true) { session in
            guard var changed = session else { return }
            changed.overrides[endpointID] = scenario
            changed.positions = changed.positions.filter { $0.key.endpoint != endpointID }
            session = changed
        }
    }

    /// Returns the endpoint to its default scenario in `session`, and its sequences to their first step.
    func reset(endpointID: String, session: String, in serving: ServingSet) throws(ChangeError) {
        guard serving.routesByID[endpointID] != nil else { throw .unknownEndpoint }
        withSession(session, creating: false) { session in
            guard var changed = session else { return }
            changed.overrides[endpointID] = nil
            changed.positions = changed.positions.filter { $0.key.endpoint != endpointID }
            session = changed
        }
    }

    /// Returns every endpoint of `session` to its default scenario and every sequence to its start.
    func resetScenarios(session: String) {
        withSession(session, creating: false) { session in
            session?.overrides = [:]
            session?.positions = [:]
        }
    }

    /// The domain's state in `session`: the last one set, else the initial one.
    func currentState(domain: String, session: String, in serving: ServingSet) -> String? {
        let states = serving.states[domain]
        let set = withSession(session, creating: false) { $0?.states[domain] }
        // A state the served contracts no longer declare (set on the old set during a reload) is the initial one.
        return set.flatMap { states?.contains($0) == true ? $0 : nil } ?? states?.first
    }

    /// Moves the domain to `newState` in `session`.
    func setState(domain: String, to newState: String, session: String, in serving: ServingSet) throws(ChangeError) {
        guard let states = serving.states[domain] else { throw .unknownDomain(known: serving.states.keys.sorted()) }
        guard states.contains(newState) else {
            throw .unknownName(message: "unknown state \"\(newState)\" for \(domain); valid: "
                + states.joined(separator: ", "), valid: states)
        }
        withSession(session, creating: true) { $0?.states[domain] = newState }
    }

    /// Returns one domain (or, for `nil`, every domain) of `session` to its initial state.
    func resetState(domain: String?, session: String, in serving: ServingSet) throws(ChangeError) {
        if let domain, serving.states[domain] == nil { throw .unknownDomain(known: serving.states.keys.sorted()) }
        withSession(session, creating: false) { session in
            if let domain { session?.states[domain] = nil } else { session?.states = [:] }
        }
    }

    // MARK: - Sessions

    /// The named sessions and their state, by id, with the seconds since each was last used.
    func sessions() -> [(id: String, idleSeconds: Int, state: SessionState)] {
        state.withValue { state in
            let now = clock()
            return state.named.filter { now &- $0.value.lastUsed < idleTimeout }
                .map { (id: $0.key, idleSeconds: Int((now &- $0.value.lastUsed) / 1_000_000_000), state: $0.value) }
                .sorted { $0.id < $1.id }
        }
    }

    /// Drops a named session; `false` when there is none by that id.
    func deleteSession(_ id: String) -> Bool {
        state.withValue { $0.named.removeValue(forKey: id) != nil }
    }

    /// Drops every named session and returns the default one to where it started.
    func deleteAllSessions() {
        state.withValue { state in
            state.named = [:]
            state.main = SessionState(now: 0)
        }
    }

    /// Forgets, in every session, what names no endpoint, scenario or state of `serving` (after a reload).
    func prune(to serving: ServingSet) {
        state.withValue { state in
            state.main.prune(to: serving)
            for id in state.named.keys { state.named[id]?.prune(to: serving) }
        }
    }
}
