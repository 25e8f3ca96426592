/// A value kept between uses and lent out while in use: taken, then put back, by moves alone.
///
/// An `Optional` stored property does the same, but putting a value back into it destroys the `nil` it holds first,
/// through the generic path for a large payload's enum (for the connection's spare request, on every request). Here
/// the slot knows when it is empty. Not copyable, so that one value owns the memory and frees it.
struct SpareValue<Value>: ~Copyable {
    private let slot: UnsafeMutablePointer<Value>
    private var isFilled: Bool

    init(_ value: consuming Value) {
        slot = .allocate(capacity: 1)
        slot.initialize(to: consume value)
        isFilled = true
    }

    deinit {
        if isFilled { slot.deinitialize(count: 1) }
        slot.deallocate()
    }

    /// The value kept, leaving the slot empty; `nil` when it is already lent out.
    @inline(__always)
    mutating func take() -> Value? {
        guard isFilled else { return nil }
        isFilled = false
        return slot.move()
    }

    /// Keeps `value`, in place of the one kept, if any.
    @inline(__always)
    mutating func put(_ value: consuming Value) {
        if isFilled { slot.deinitialize(count: 1) }
        slot.initialize(to: consume value)
        isFilled = true
    }
}
