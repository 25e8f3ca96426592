import Foundation
@testable import HTTPCore
import Testing

/// `Lock` is a futex word on Linux (a pthread mutex on Darwin): it must exclude, and wake whoever waits.
@Suite(.blockingIO) struct LockTests {
    /// A counter read, then written back a moment later, by threads that all want it at once: any overlap loses
    /// increments (seen: with the lock taken by nobody, about half of them).
    @Test func threadsThatContend_NeverOverlap() throws {
        let lock = Lock()
        let counter = Counter()
        let threads = 4
        let rounds = 50_000
        let finished = try Self.run(threads) {
            for _ in 0..<rounds {
                lock.withLock {
                    let seen = counter.value
                    if seen % 64 == 0 { sched_yield() }   // widens the window an overlap would need
                    counter.value = seen + 1
                }
            }
        }
        guard finished else { return }
        #expect(lock.withLock { counter.value } == threads * rounds)
    }

    /// Threads that find the lock held sleep in the kernel; each unlock must wake one, or they sleep forever.
    @Test func waitersAreWoken_WhenTheHolderLetsGo() throws {
        let lock = Lock()
        let counter = Counter()
        let waiters = 6
        let trying = DispatchSemaphore(value: 0)
        let finished = try lock.withLock {
            let started = try Self.start(waiters) {
                trying.signal()
                lock.withLock { counter.value += 1 }
            }
            // Every one has reached the lock, held; then long enough for them all to be asleep on it.
            for _ in 0..<waiters { trying.wait() }
            Thread.sleep(forTimeInterval: 0.2)
            return started
        }()
        guard finished else { return }
        #expect(lock.withLock { counter.value } == waiters)
    }

    /// Runs `body` on `count` threads and waits for them; `false`, with an issue recorded, when one has not ended
    /// within 20 s (a waiter never woken): joined, it would hang the run.
    private static func run(_ count: Int, _ body: @escaping @Sendable () -> Void) throws -> Bool {
        try start(count, body)()
    }

    /// Starts `body` on `count` threads; the function returned waits for them as ``run(_:_:)`` does.
    private static func start(_ count: Int, _ body: @escaping @Sendable () -> Void) throws -> () -> Bool {
        let done = DispatchSemaphore(value: 0)
        let handles = try (0..<count).map { _ in
            try POSIX.startThread {
                body()
                done.signal()
            }
        }
        return {
            for _ in 0..<count where done.wait(timeout: .now() + 20) == .timedOut {
                Issue.record("a thread never got the lock")
                for handle in handles { handle.detach() }
                return false
            }
            for handle in handles { handle.join() }
            return true
        }
    }

    private final class Counter: @unchecked Sendable {
        // @unchecked: touched only under the lock being tested.
        var value = 0
    }
}
