#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with a condition variable, for a thread that sleeps until another hands it work.
public final class Condition: @unchecked Sendable {
    // @unchecked: the pthread condition and mutex are the synchronisation; allocated once, never moved.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Releases the lock until signalled; call inside ``withLock(_:)``, in a loop that checks the state.
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    public func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
