import Foundation

/// When and how often a call is sent again: which outcomes are worth another try, how many tries, and how
/// long to wait between them.
///
/// Waits grow exponentially with full jitter (a uniform draw between 0 and
/// `min(maxDelay, baseDelay × 2^(retry − 1))`), so clients that failed together do not come back together.
/// A `Retry-After` field (seconds or an HTTP-date) on a retryable response replaces the backoff when it
/// asks for at most ``maxRetryAfter`` seconds; a longer one means the server is not coming back soon, and
/// the response is returned as it is. Only idempotent calls are retried (``Endpoint/isIdempotent``), and
/// every try goes through the interceptors again. Cancelling the task ends a wait at once.
///
/// ```swift
/// let client = APIClient(environment: .local(), retry: RetryPolicy(maxAttempts: 3))   // every call
/// let page = await client.send(ProductAPI.list(page: 1, itemsPerPage: 20), retry: .none) // this call: never
/// ```
public struct RetryPolicy: Sendable {
    /// Tries in all, the first included; 1 never retries.
    public var maxAttempts: Int
    /// The backoff's first ceiling, in seconds; it doubles with each retry.
    public var baseDelay: TimeInterval
    /// The backoff's largest ceiling, in seconds.
    public var maxDelay: TimeInterval
    /// The longest `Retry-After` honoured, in seconds; a response asking for more is not retried.
    public var maxRetryAfter: TimeInterval
    /// Statuses worth another try.
    public var retryableStatuses: Set<Int>
    /// Failures without a response worth another try.
    public var retryableFailures: Set<TransportError.Kind>
    /// The clock, the waits and the jitter's randomness; replace them in tests.
    public var timing: RetryTiming

    /// 408 Request Timeout, 429 Too Many Requests, 502 Bad Gateway, 503 Service Unavailable, 504 Gateway Timeout.
    public static let defaultStatuses: Set<Int> = [408, 429, 502, 503, 504]
    /// A connection that dropped, timed out or could not be made.
    public static let defaultFailures: Set<TransportError.Kind> = [.connectionLost, .timedOut, .cannotConnect]

    /// - Parameters:
    ///   - maxAttempts: Tries in all, the first included (at least 1).
    ///   - baseDelay: The backoff's first ceiling in seconds.
    ///   - maxDelay: The backoff's largest ceiling in seconds.
    ///   - maxRetryAfter: The longest `Retry-After` honoured, in seconds.
    ///   - retryableStatuses: Statuses worth another try.
    ///   - retryableFailures: Failures without a response worth another try.
    ///   - timing: The clock, waits and randomness.
    public init(
        maxAttempts: Int = 3,
        baseDelay: TimeInterval = 0.5,
        maxDelay: TimeInterval = 8,
        maxRetryAfter: TimeInterval = 30,
        retryableStatuses: Set<Int> = RetryPolicy.defaultStatuses,
        retryableFailures: Set<TransportError.Kind> = RetryPolicy.defaultFailures,
        timing: RetryTiming = .live
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(0, maxDelay)
        self.maxRetryAfter = max(0, maxRetryAfter)
        self.retryableStatuses = retryableStatuses
        self.retryableFailures = retryableFailures
        self.timing = timing
    }

    /// Never retry: one try per call.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Whether an outcome is worth another try, attempts and method aside.
    /// - Parameters:
    ///   - status: The response's status, or `nil` when none arrived.
    ///   - failure: The kind of failure when no response arrived.
    public func isRetryable(status: Int?, failure: TransportError.Kind?) -> Bool {
        if let status { return retryableStatuses.contains(status) }
        if let failure { return retryableFailures.contains(failure) }
        return false
    }

    /// How long to wait before retry number `retry` (1 for the first), or `nil` not to retry.
    /// - Parameters:
    ///   - retry: Which retry this would be: 1 after the first try failed.
    ///   - retryAfter: The response's `Retry-After` value, if any.
    /// - Returns: Seconds to wait; `nil` when `retry` would exceed ``maxAttempts`` or `Retry-After` asks
    ///   for more than ``maxRetryAfter``.
    public func delay(beforeRetry retry: Int, retryAfter: String? = nil) -> TimeInterval? {
        guard retry >= 1, retry < maxAttempts else { return nil }
        if let retryAfter, let seconds = RetryAfter.delay(retryAfter, now: timing.now()) {
            return seconds <= maxRetryAfter ? seconds : nil
        }
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(retry - 1)))
        return ceiling > 0 ? timing.random(0...ceiling) : 0
    }
}
