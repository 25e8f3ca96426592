/// One `Value` for each thread that asks for it, made by the thread's first ``value`` and released when the thread
/// ends (a `pthread` key): state an event loop keeps to itself, read without a lock.
///
/// Meant for a `static let`, which lives as long as the process: its key is never deleted, since a deleted key's
/// number can be handed out again while threads still hold values under it.
/// `public`, as ``Lock`` is, so that ``value`` is inlined into the request path of another module.
public final class PerThread<Value: AnyObject>: @unchecked Sendable {
    // @unchecked: the key is set once; each thread touches only its own value.
    @usableFromInline let key: LibC.ThreadKey?
    @usableFromInline let make: @Sendable () -> Value

    public init(_ make: @escaping @Sendable () -> Value) {
        key = LibC.makeObjectKey()
        self.make = make
    }

    /// This thread's value; `nil` when the process had no key left for this one, so that a caller keeping a cache
    /// there goes without it, rather than making one for each call.
    @inlinable public var value: Value? {
        guard let key else { return nil }
        if let stored = LibC.threadValue(key) { return Unmanaged<Value>.fromOpaque(stored).takeUnretainedValue() }
        let value = make()
        let retained = Unmanaged.passRetained(value)
        if !LibC.setThreadValue(key, retained.toOpaque()) { retained.release() }
        return value
    }
}
