/// A mutex for state shared by the event loops (`NSLock` is not in FoundationEssentials, and `Mutex` needs
/// macOS 15): on Linux a futex word, on Darwin a pthread mutex (``LibC/Mutex``).
///
/// `public`, as all of HTTPCore, for speed alone (see Package.swift): Swift 6.3 neither inlines nor
/// specializes a `package` `@inlinable` generic in another module, so every lock the mock layer took was
/// an unspecialized generic call with runtime metadata look-ups.
public final class Lock: @unchecked Sendable {
    // @unchecked: the mutex is the synchronisation itself; it is allocated once and never moved.
    @usableFromInline let mutex: UnsafeMutablePointer<LibC.Mutex>

    public init() { mutex = LibC.makeMutex() }

    deinit { LibC.destroyMutex(mutex) }

    // Inlinable: the mock layer takes locks on the request path, from another module.
    @inlinable public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        LibC.lock(mutex)
        defer { LibC.unlock(mutex) }
        return try body()
    }
}

/// A value shared between threads, guarded by a ``Lock``; `public` for the reason ``Lock`` is.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `lock.withLock`. The mutex already makes every
    // access exclusive, so the runtime's dynamic exclusivity check is skipped as well.
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var value: Value

    public init(_ value: Value) { self.value = value }

    @inlinable public func withValue<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&value) }
    }

    @inlinable public var current: Value { lock.withLock { value } }
}
