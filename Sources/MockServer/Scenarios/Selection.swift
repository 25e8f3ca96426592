import MockProtocol

/// The scenario a request plays, and why.
struct Selection {
    /// Why a scenario was chosen (``MockProtocol/SelectionReason``).
    typealias Reason = SelectionReason

    /// The scenario chosen: a sequence, or the ordinary scenario that is played.
    let chosen: ScenarioPlay
    /// What is played: ``chosen``, or the step of it that is due.
    let play: ScenarioPlay
    let reason: Reason
    /// The step's position (1 for the first) when ``chosen`` is a sequence.
    let step: Int?
    /// When a `when` rule chose: its index in the scenario's `when`.
    var rule: Int? = nil
    /// The endpoint's template counter in the session, when ``play`` is a template.
    let counter: Int
    /// The session it was chosen in (``SessionTable/defaultSession`` for requests without one).
    let session: String
}
