import Foundation

/// Where a ``RetryPolicy`` gets the time, its waits and its randomness: the real ones by default, fixed
/// ones in tests.
///
/// ```swift
/// let waits = Recorder<TimeInterval>()
/// var policy = RetryPolicy(maxAttempts: 3)
/// policy.timing = RetryTiming(now: { fixedDate }, sleep: { waits.append($0) }, random: { $0.upperBound })
/// ```
public struct RetryTiming: Sendable {
    /// The current time, to turn a `Retry-After` date into a wait.
    public var now: @Sendable () -> Date
    /// Waits this many seconds. Must throw (`CancellationError`) at once when the task is cancelled.
    public var sleep: @Sendable (TimeInterval) async throws -> Void
    /// A number in the range, uniformly drawn: the jitter of the backoff.
    public var random: @Sendable (ClosedRange<Double>) -> Double

    /// - Parameters:
    ///   - now: The current time.
    ///   - sleep: Waits the given seconds; throws when the task is cancelled.
    ///   - random: Draws a number in the range.
    public init(
        now: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void,
        random: @escaping @Sendable (ClosedRange<Double>) -> Double
    ) {
        self.now = now
        self.sleep = sleep
        self.random = random
    }

    /// The system clock, `Task.sleep` (which ends at once with `CancellationError` when the task is
    /// cancelled) and the system's random numbers.
    public static let live = RetryTiming(
        now: { Date() },
        sleep: { seconds in try await Task.sleep(for: .seconds(max(0, seconds))) },
        random: { range in Double.random(in: range) })
}
