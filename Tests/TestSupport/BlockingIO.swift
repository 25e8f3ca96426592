import Foundation
import Testing

/// For suites whose tests block their thread (a socket read, a child process waited for, a sleep):
/// each test runs on a thread of its own instead of on Swift's cooperative pool.
///
/// The pool has one thread per core, two in CI. Two tests blocked in a read held every other test's
/// tasks, so a URLSession callback or a `Task.sleep` elsewhere resumed tens of seconds late and
/// tests that count time failed for no reason of their own. A gate keeps at most ``width`` such tests
/// running at once (waiting at the gate suspends, it blocks nothing), which also bounds the descriptors
/// and threads their servers use.
public struct BlockingIOTrait: SuiteTrait, TestTrait, TestScoping {
    /// How many blocking tests run at once.
    public static let width = 6

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite itself is a scope too; only its tests' cases get a thread.
        guard testCase != nil else { return try await function() }
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return try await function() }
        await Self.gate.enter()
        let thread = TestThread(name: test.name)
        defer {
            thread.finish()
            Task { await Self.gate.leave() }
        }
        try await withTaskExecutorPreference(thread, operation: function)
    }

    private static let gate = Gate(width: width)
}

extension Trait where Self == BlockingIOTrait {
    /// Each test of the suite runs on a thread of its own: see ``BlockingIOTrait``.
    public static var blockingIO: Self { BlockingIOTrait() }
}

/// Lets at most `width` callers in at once; the rest wait, suspended, in arrival order.
private actor Gate {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { available = width }

    func enter() async {
        if available > 0 { available -= 1; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty { available += 1 } else { waiting.removeFirst().resume() }
    }
}

/// A task executor with one thread, running its jobs in order. After ``finish()`` the thread ends once
/// it has run what it was given; a job that still arrives later (a continuation resumed after the test)
/// runs on a thread of its own rather than being lost.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
private final class TestThread: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var running = true

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = "test: \(name)"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if running {
            jobs.append(job)
            condition.signal()
            condition.unlock()
        } else {
            condition.unlock()
            Thread.detachNewThread { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                running = false
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
