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

/// Why a drift check gave no report.
package struct DriftCheckFailure: Error, Sendable {
    package enum Kind: Sendable {
        /// Its options were wrong (a 400).
        case options
        /// Another check is running (a 409).
        case busy
        /// The contracts on disk do not load (a 422).
        case contracts
    }

    package let message: String
    package let kind: Kind

    package init(_ message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }
}
