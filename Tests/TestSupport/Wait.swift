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

/// Ends a test whose awaited condition never held (the issue is already recorded at the caller).
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "gave up waiting after \(seconds) s" }
}
