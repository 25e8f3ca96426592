import Foundation
import Testing

/// Polls `condition` every 5 ms for up to `seconds`, instead of sleeping blindly or spinning on
/// `Task.yield`; records an issue at the caller and throws if it never holds.
public func waitUntil(
    seconds: Double = 5,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within \(seconds) s", sourceLocation: sourceLocation)
            throw WaitTimedOut(seconds: seconds)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// ``waitUntil(seconds:sourceLocation:_:)`` for code already off the cooperative pool (inside ``offThePool(_:)``):
/// polls `condition` every 2 ms for up to `seconds`, blocking the calling thread.
public func pollUntil(
    seconds: Double = 5,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else {
            Issue.record("condition not met within \(seconds) s", sourceLocation: sourceLocation)
            throw WaitTimedOut(seconds: seconds)
        }
        Thread.sleep(forTimeInterval: 0.002)
    }
}

/// Ends a test whose awaited condition never held (the issue is already recorded at the caller).
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "gave up waiting after \(seconds) s" }
}

/// Runs blocking work (a child process read to its end, a socket read in a loop) on a thread of its own
/// rather than on Swift's cooperative pool, which has one thread per core: a test that blocks a pool
/// thread for long holds up every other test's tasks, which then time out for no reason of their own.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
