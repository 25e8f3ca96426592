import Foundation
import Testing
@testable import Networking

struct RetryPolicyTests {
    private let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    private func policy(maxAttempts: Int = 5, draw: @escaping @Sendable (ClosedRange<Double>) -> Double = { $0.upperBound })
        -> RetryPolicy
    {
        let fixed = now
        return RetryPolicy(maxAttempts: maxAttempts, baseDelay: 0.5, maxDelay: 3, maxRetryAfter: 60,
                           timing: RetryTiming(now: { fixed }, sleep: { _ in }, random: draw))
    }

    @Test func backoff_DoublesUpToTheCap_WithFullJitter() {
        let ranges = Recorder<ClosedRange<Double>>()
        let policy = policy(draw: { ranges.append($0); return $0.upperBound / 2 })
        let waits = (1...4).map { policy.delay(beforeRetry: $0) }
        // Each wait is a draw from 0...min(3, 0.5 × 2^(n-1)).
        #expect(ranges.all == [0...0.5, 0...1, 0...2, 0...3])
        #expect(waits == [0.25, 0.5, 1, 1.5])
    }

    @Test func noDelay_PastMaxAttempts() {
        #expect(policy(maxAttempts: 3).delay(beforeRetry: 2) != nil)
        #expect(policy(maxAttempts: 3).delay(beforeRetry: 3) == nil)
        #expect(RetryPolicy.none.delay(beforeRetry: 1) == nil)
    }

    @Test(arguments: [
        ("5", 5.0), (" 0 ", 0), ("60", 60),
        ("Sun, 06 Nov 1994 08:50:07 GMT", 30),          // IMF-fixdate
        ("Sunday, 06-Nov-94 08:50:17 GMT", 40),         // obsolete RFC 850
        ("Sun Nov  6 08:50:27 1994", 50),               // asctime
        ("Sun, 06 Nov 1994 08:00:00 GMT", 0),           // in the past: at once
    ])
    func retryAfter_IsHonoured_InBothForms(value: String, seconds: Double) {
        #expect(policy().delay(beforeRetry: 1, retryAfter: value) == seconds)
    }

    @Test(arguments: ["61", "Sun, 06 Nov 1994 09:49:37 GMT"])
    func retryAfter_BeyondTheCap_MeansNoRetry(value: String) {
        #expect(policy().delay(beforeRetry: 1, retryAfter: value) == nil)
    }

    @Test(arguments: ["soon", "-3", "1.5", ""])
    func retryAfter_Unreadable_FallsBackToBackoff(value: String) {
        #expect(policy().delay(beforeRetry: 1, retryAfter: value) == 0.5)
    }

    @Test func retryableOutcomes_AreTheDefaultsUnlessChanged() {
        let policy = RetryPolicy()
        for status in [408, 429, 502, 503, 504] { #expect(policy.isRetryable(status: status, failure: nil)) }
        for status in [200, 400, 401, 404, 500, 501] { #expect(!policy.isRetryable(status: status, failure: nil)) }
        for kind in [TransportError.Kind.connectionLost, .timedOut, .cannotConnect] {
            #expect(policy.isRetryable(status: nil, failure: kind))
        }
        for kind in [TransportError.Kind.cancelled, .badResponse, .invalidRequest, .other] {
            #expect(!policy.isRetryable(status: nil, failure: kind))
        }
        let custom = RetryPolicy(retryableStatuses: [500], retryableFailures: [])
        #expect(custom.isRetryable(status: 500, failure: nil) && !custom.isRetryable(status: nil, failure: .timedOut))
    }

    @Test func idempotency_FollowsTheMethod_UnlessTheEndpointSays() {
        #expect([HTTPMethod.get, .head, .options, .put, .delete].allSatisfy { $0.isIdempotent })
        #expect(![HTTPMethod.post, .patch].contains { $0.isIdempotent })
        struct KeyedPost: Endpoint {
            var path: String { "/orders" }
            var method: HTTPMethod { .post }
            var isIdempotent: Bool { true }
        }
        #expect(KeyedPost().isIdempotent)
        #expect(!TestEndpoint(method: .post).isIdempotent)
    }
}
