/// A budget of requests per window for an endpoint: past it the server answers 429 with `Retry-After`
/// and the `RateLimit`/`X-RateLimit-*` headers, until the window ends.
package struct RateLimit: Sendable, Equatable {
    package enum Scope: String, Sendable, CaseIterable {
        /// Each `X-Mock-Session` (and the default one) has its own budget.
        case session
        /// One budget for every client.
        case global
    }

    package enum RetryAfterForm: String, Sendable, CaseIterable {
        /// `Retry-After: 12`.
        case seconds
        /// `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT`.
        case date
    }

    package let limit: Int
    package let windowSeconds: Int
    package let scope: Scope
    package let retryAfter: RetryAfterForm
}
