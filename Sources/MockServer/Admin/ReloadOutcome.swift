import ContractModel

/// How a contract reload went: a valid set replaced the served one, or a broken one was refused and
/// the server goes on serving the set it had.
public struct ReloadOutcome: Sendable {
    /// Whether the new set was valid and is now served.
    public let succeeded: Bool
    /// Every problem of a refused set: file, JSON path and reason.
    public let problems: [ContractProblem]
    /// The endpoints served after the reload.
    public let endpoints: Int
    /// Wall-clock seconds since 1970 of the reload.
    public let seconds: Int
}
