/// What changes which scenario plays while the server runs, for one session (one `X-Mock-Session` value, or the
/// default session of requests without one): kept by name, so a contract reload keeps what still exists.
struct SessionState: Sendable {
    /// Scenario overrides from the admin API, by endpoint id.
    var overrides: [String: String] = [:]
    /// Each domain's current state, where it is not the initial one.
    var states: [String: String] = [:]
    /// How many requests each sequence has answered, by endpoint id and sequence name.
    var positions: [SequenceKey: Int] = [:]
    /// Template responses served, by endpoint id.
    var counters: [String: Int] = [:]

    struct SequenceKey: Hashable, Sendable {
        let endpoint: String
        let scenario: String
    }

    /// Whether nothing was changed: such a session behaves as the contracts say.
    var isPristine: Bool { overrides.isEmpty && states.isEmpty && positions.isEmpty && counters.isEmpty }

    /// Sends the endpoint's sequences back to their first step.
    mutating func restartSequences(of endpointID: String) {
        positions = positions.filter { $0.key.endpoint != endpointID }
    }

    /// Forgets what names no endpoint, scenario or state of `serving` any more (after a reload).
    mutating func prune(to serving: ServingSet) {
        overrides = overrides.filter { serving.routesByID[$0.key]?.play(named: $0.value) != nil }
        states = states.filter { serving.states[$0.key]?.contains($0.value) ?? false }
        positions = positions.filter { serving.routesByID[$0.key.endpoint]?.play(named: $0.key.scenario) != nil }
        counters = counters.filter { serving.routesByID[$0.key] != nil }
    }
}
