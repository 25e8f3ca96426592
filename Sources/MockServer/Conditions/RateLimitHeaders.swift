import ContractModel
import HTTPCore

/// The header fields that tell a client its budget: `RateLimit-Limit`, `RateLimit-Remaining` and
/// `RateLimit-Reset` (delta seconds, as the IETF httpapi draft and most gateways send them), the same as
/// `X-RateLimit-*` (GitHub's and many APIs' names; `X-RateLimit-Reset` in epoch seconds, as GitHub), and on
/// a 429 `Retry-After` (RFC 9110 §10.2.3) in the form the contract declares.
enum RateLimitHeaders {
    static func fields(_ admission: RateLimiter.Admission) -> [(name: String, value: String)] {
        let resetAt = Self.windowEnd(admission)
        return [
            ("RateLimit-Limit", String(admission.limit)),
            ("RateLimit-Remaining", String(admission.remaining)),
            ("RateLimit-Reset", String(admission.resetSeconds)),
            ("X-RateLimit-Limit", String(admission.limit)),
            ("X-RateLimit-Remaining", String(admission.remaining)),
            ("X-RateLimit-Reset", String(resetAt)),
        ]
    }

    /// The wall-clock second the window ends in, rounded up: a client that waits for it is never early.
    private static func windowEnd(_ admission: RateLimiter.Admission) -> Int {
        let (seconds, milliseconds) = POSIX.wallClock()
        let end = UInt64(milliseconds) * 1_000_000 + admission.resetNanoseconds
        return seconds + Int((end + 999_999_999) / 1_000_000_000)
    }

    static func retryAfter(_ admission: RateLimiter.Admission, _ limit: RateLimit) -> [(name: String, value: String)] {
        switch limit.retryAfter {
        case .seconds:
            return [("Retry-After", String(admission.resetSeconds))]
        case .date:
            return [("Retry-After", HTTPDate.format(Self.windowEnd(admission)))]
        }
    }
}
