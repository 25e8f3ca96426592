import ContractModel
import HTTPCore

/// Which scenario each request plays, and everything that changes it at run time, per session: admin
/// overrides, domain states, sequence positions and template counters (``SessionState``), kept in the
/// ``SessionTable`` that every per-session store shares.
final class ScenarioStore: Sendable {
    let sessions: SessionTable

    init(sessions: SessionTable) {
        self.sessions = sessions
    }

    // MARK: - Requests

    /// The scenario `route` plays for a request in `session`.
    /// - Parameters:
    ///   - requested: The scenario the request's `X-Mock-Scenario` names, if any.
    ///   - advancing: Whether the request is answered by the scenario, so that a sequence moves on, the
    ///     domain takes the scenario's state and a template's counter counts; `false` only names it (for a
    ///     request refused before it is played).
    ///   - ruled: The scenario whose `when` holds for the request and the rule's index (``Route/firstHolding(_:)``),
    ///     if any; `nil` also where no request is at hand (the admin API's listing).
    /// - Throws: ``NoScenarioApplies`` when every scenario has a `when`, none holds, and neither the request, an
    ///   override nor the domain's state names one. (Thrown rather than returned as `nil`: the request path then
    ///   holds no optional selection, whose destruction went through the type's metadata.)
    func select(_ route: Route, requested: ScenarioPlay?, session: String, advancing: Bool,
                ruled: (play: ScenarioPlay, rule: Int)? = nil) throws(NoScenarioApplies) -> Selection {
        // The common case, the default session playing a scenario that changes nothing, takes at most one
        // look-up under the lock and copies no session state.
        if session == SessionTable.defaultSession, let plain = plainSelection(route, requested: requested) { return plain }
        let id = session
        let found = sessions.withRecord(session, creating: advancing) { record -> Selection? in
            guard let (chosen, reason) = Self.choose(route, requested: requested, ruled: ruled?.play,
                                                     in: record?.scenarios ?? SessionState())
            else { return nil }
            var play = chosen
            var step: Int?
            if case .sequence(let steps, let sequence) = chosen.action, !steps.isEmpty {
                let key = SessionState.SequenceKey(endpoint: route.id, scenario: chosen.name)
                let position = record?.scenarios.positions[key] ?? 0
                let index = sequence.stepIndex(at: position)
                play = steps[index]
                step = index + 1
                if advancing { record?.scenarios.positions[key] = sequence.position(after: position) }
            }
            var counter = 0
            if advancing {
                if let target = play.setState { record?.scenarios.states[route.domain] = target }
                if play.isTemplate {
                    counter = (record?.scenarios.counters[route.id] ?? 0) + 1
                    record?.scenarios.counters[route.id] = counter
                }
            }
            return Selection(chosen: chosen, play: play, reason: reason, step: step, rule: reason == .when ? ruled?.rule : nil,
                             counter: counter, session: id)
        }
        guard let found else { throw NoScenarioApplies() }
        return found
    }

    /// What ``select(_:requested:session:advancing:ruled:)`` throws when no scenario applies to a request.
    struct NoScenarioApplies: Error {}

    /// The selection for the default session when it is simply the requested scenario, or the route's
    /// default with no override, and playing it changes nothing; `nil` when the full rules must run.
    private func plainSelection(_ route: Route, requested: ScenarioPlay?) -> Selection? {
        if let requested {
            guard !requested.changesState else { return nil }
            return Selection(chosen: requested, play: requested, reason: .header, step: nil, counter: 0,
                             session: SessionTable.defaultSession)
        }
        guard route.defaultIsPlain, let play = route.defaultPlay, !sessions.mainOverrides(route.id) else { return nil }
        return Selection(chosen: play, play: play, reason: route.defaultReason, step: nil, counter: 0,
                         session: SessionTable.defaultSession)
    }

    /// Precedence: the request's header, the admin override, the first `when` that holds, the state's scenario,
    /// `--scenario`, the first scenario without `when`; `nil` when none applies.
    private static func choose(_ route: Route, requested: ScenarioPlay?, ruled: ScenarioPlay?, in session: SessionState)
        -> (ScenarioPlay, Selection.Reason)?
    {
        if let requested { return (requested, .header) }
        if !session.overrides.isEmpty, let name = session.overrides[route.id], let play = route.play(named: name) {
            return (play, .override)
        }
        if let ruled { return (ruled, .when) }
        if !route.stateScenarios.isEmpty, let state = route.state(session.states[route.domain]),
           let play = route.stateScenarios[state] {
            return (play, .state)
        }
        return route.defaultPlay.map { ($0, route.defaultReason) }
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
        sessions.withRecord(session, creating: true) { record in
            record?.scenarios.overrides[endpointID] = scenario
            record?.scenarios.restartSequences(of: endpointID)
        }
    }

    /// Returns the endpoint to its default scenario in `session`, and its sequences to their first step.
    func reset(endpointID: String, session: String, in serving: ServingSet) throws(ChangeError) {
        guard serving.routesByID[endpointID] != nil else { throw .unknownEndpoint }
        sessions.withRecord(session, creating: false) { record in
            record?.scenarios.overrides[endpointID] = nil
            record?.scenarios.restartSequences(of: endpointID)
        }
    }

    /// Returns every endpoint of `session` to its default scenario and every sequence to its start.
    func resetScenarios(session: String) {
        sessions.withRecord(session, creating: false) { record in
            record?.scenarios.overrides = [:]
            record?.scenarios.positions = [:]
        }
    }

    /// The domain's state in `session`: the last one set, else the initial one.
    func currentState(domain: String, session: String, in serving: ServingSet) -> String? {
        let states = serving.states[domain]
        let set = sessions.withRecord(session, creating: false) { $0?.scenarios.states[domain] }
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
        sessions.withRecord(session, creating: true) { $0?.scenarios.states[domain] = newState }
    }

    /// Returns one domain (or, for `nil`, every domain) of `session` to its initial state.
    func resetState(domain: String?, session: String, in serving: ServingSet) throws(ChangeError) {
        if let domain, serving.states[domain] == nil { throw .unknownDomain(known: serving.states.keys.sorted()) }
        sessions.withRecord(session, creating: false) { record in
            if let domain { record?.scenarios.states[domain] = nil } else { record?.scenarios.states = [:] }
        }
    }

    // MARK: - Sessions

    /// Forgets, in every session, what names no endpoint, scenario or state of `serving` (after a reload).
    func prune(to serving: ServingSet) {
        sessions.updateAll { _, record in record.scenarios.prune(to: serving) }
    }
}
