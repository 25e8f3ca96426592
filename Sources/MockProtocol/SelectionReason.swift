/// Why a request played the scenario it played, highest precedence first: what the journal records as
/// `selectedBy` and the admin API as `activeBecause`.
public enum SelectionReason: String, Sendable, Codable, CaseIterable {
    /// The request's `X-Mock-Scenario` header.
    case header
    /// The admin API (`PUT /__mock/scenarios/{id}`), for the request's session.
    case override
    /// The first scenario, in contract order, whose `when` holds for the request.
    case when
    /// The endpoint's `whenState` entry for its domain's current state.
    case state
    /// The server-wide `--scenario`.
    case server
    /// The endpoint's first scenario.
    case first
}
