/// What came of one case: the scenario holds, drifted (each difference named), or was not verified (why).
struct VerifyResult: Sendable {
    enum Verdict: Sendable, Equatable {
        case verified
        case drift([String])
        case notVerified(String)
    }

    let verifyCase: VerifyCase
    let verdict: Verdict
    /// Keys only the backend's answer has, and other remarks that are not drift.
    var notes: [String] = []
    /// The status the backend answered, when it answered.
    var status: Int? = nil
    var milliseconds: Double? = nil
}
