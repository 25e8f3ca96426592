/// What `POST /__mock/verify` runs: the served contracts checked against the `--proxy` backend, as
/// `mock-server verify` checks them (the executable plugs it in; the server knows only this protocol). The last
/// run's report is kept for `GET /__mock/verify` and the dashboard. Never against another target: a page that can
/// reach the admin API must not make the server fetch arbitrary URLs.
package protocol DriftCheck: Sendable {
    /// The longest a run may take, in nanoseconds: the admin request waits for it that long.
    var timeoutNanoseconds: UInt64 { get }

    /// Runs the check with the options in `body` (a JSON object, or empty), calling `completion` once, from another
    /// thread, with the report as JSON, or why there is none.
    func run(options body: [UInt8], completion: @escaping @Sendable (Result<[UInt8], DriftCheckFailure>) -> Void)

    /// The last run's report as JSON, if there was one.
    var lastReport: [UInt8]? { get }
}

/// Why a drift check gave no report: its options, or the contracts on disk.
package struct DriftCheckFailure: Error, Sendable {
    package let message: String
    /// The options were wrong (a 400), rather than the contracts (a 422).
    package let isBadRequest: Bool

    package init(_ message: String, isBadRequest: Bool) {
        self.message = message
        self.isBadRequest = isBadRequest
    }
}
