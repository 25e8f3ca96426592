/// The scenario a request plays, and why.
struct Selection {
    /// Why a scenario was chosen, highest precedence first.
    enum Reason: String, Sendable, Codable {
        /// The request's `X-Mock-Scenario` header.
        case header
        /// The admin API (`PUT /__mock/scenarios/{id}`), for the request's session.
        case override
        /// The endpoint's `whenState` entry for its domain's current state.
        case state
        /// The server-wide `--scenario`.
        case server
        /// The endpoint's first scenario.
        case first
    }

    /// The scenario chosen: a sequence, or the ordinary scenario that is played.
    let chosen: ScenarioPlay
    /// What is played: ``chosen``, or the step of it that is due.
    let play: ScenarioPlay
    let reason: Reason
    /// The step's position (1 for the first) when ``chosen`` is a sequence.
    let step: Int?
    /// The endpoint's template counter in the session, when ``play`` is a template.
    let counter: Int
    /// The session it was chosen in (``SessionTable/defaultSession`` for requests without one).
    let session: String
}
