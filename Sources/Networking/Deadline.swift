import Foundation

/// The client's own limit on one request: reached, the call ends with ``TransportError/Kind-swift.struct/timedOut``
/// whatever the dispatcher is doing.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    /// The limit that was reached, in seconds.
    public let seconds: TimeInterval

    /// A deadline of `seconds` that was reached.
    public init(seconds: TimeInterval) { self.seconds = seconds }

    /// `no response within N s`.
    public var description: String { "no response within \(seconds) s" }
}

/// Runs an operation with a deadline it cannot outlive, and returns at once when the calling task is
/// cancelled: the operation is cancelled too, but never waited for, so a dispatcher that ignores
/// cancellation (FoundationNetworking on a 401 with a Basic challenge) cannot hold the caller.
enum Deadline {
    static func run<T: Sendable>(
        seconds: TimeInterval,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = Race<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation) {
                    let work = Task {
                        do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
                    }
                    let timer = Task {
                        try? await Task.sleep(for: .seconds(max(0, seconds)))
                        race.finish(.failure(TransportError(kind: .timedOut, underlying: DeadlineExceeded(seconds: seconds))))
                    }
                    return [work, timer]
                }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }
}

/// The first of several outcomes, delivered once; the tasks that could still produce one are cancelled.
private final class Race<T: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property is only touched while holding `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var outcome: Result<T, any Error>?
    private var tasks: [Task<Void, Never>] = []

    /// Installs the continuation and starts the racers, unless an outcome (a cancellation) came first.
    func start(_ continuation: CheckedContinuation<T, any Error>, racers: () -> [Task<Void, Never>]) {
        lock.lock()
        if let outcome {
            lock.unlock()
            continuation.resume(with: outcome)
            return
        }
        self.continuation = continuation
        let started = racers()
        tasks = started
        let finished = self.outcome != nil
        lock.unlock()
        if finished { started.forEach { $0.cancel() } }
    }

    func finish(_ result: Result<T, any Error>) {
        lock.lock()
        guard outcome == nil else { lock.unlock(); return }
        outcome = result
        let waiting = continuation
        continuation = nil
        let running = tasks
        // The racers hold the race; it lets go of them, so nothing keeps the other.
        tasks = []
        lock.unlock()
        running.forEach { $0.cancel() }
        waiting?.resume(with: result)
    }
}
