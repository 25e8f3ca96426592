#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``Lock`` with a condition variable, for a thread that sleeps until another hands it work.
public final class Condition: @unchecked Sendable {
    // @unchecked: the pthread condition and the lock's mutex are the synchronisation; allocated once.
    private let lock = Lock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }

    /// Releases the lock until signalled; call inside ``withLock(_:)``, in a loop that checks the state.
    public func wait() {
        pthread_cond_wait(condition, lock.mutex)
    }

    public func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
