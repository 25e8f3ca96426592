/// The bytes read from one connection: `storage[readIndex..<count]` are read but not yet consumed by a
/// request. Grows for large requests and shrinks back once drained.
///
/// Memory of its own rather than an array: the parser reads the bytes in place, and an array's storage was retained
/// and released around each parse. Not copyable, so that one value owns the memory and frees it.
struct InboundBuffer: ~Copyable {
    private var storage: UnsafeMutableRawBufferPointer
    private(set) var count = 0
    var readIndex = 0

    /// What a connection starts with, and shrinks back to.
    private static let initialCapacity = 4096

    init() { storage = .allocate(byteCount: Self.initialCapacity, alignment: 1) }

    deinit { storage.deallocate() }

    var hasUnconsumed: Bool { readIndex < count }
    var unconsumedCount: Int { count - readIndex }

    /// Reads what the socket has into free space (at least 4 KiB of it).
    /// - Returns: The read's result, and whether it filled all the free space (more may be waiting).
    mutating func read(from fd: Int32) -> (result: POSIX.IOResult, filled: Bool) {
        reserve(4096)
        let result = POSIX.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: storage[count...]))
        guard case .bytes(let read) = result else { return (result, false) }
        count += read
        return (result, count == storage.count)
    }

    enum KeptRead { case drained, full, closed }

    /// Reads everything the socket has, as long as fewer than `limit` bytes are unconsumed.
    mutating func readKeeping(from fd: Int32, upTo limit: Int) -> KeptRead {
        while unconsumedCount < limit {
            switch read(from: fd).result {
            case .bytes: continue
            case .wouldBlock: return .drained
            case .closed: return .closed
            }
        }
        return .full
    }

    /// Reads and drops everything the socket has. Returns whether the peer closed.
    static func discard(from fd: Int32) -> Bool {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            switch scratch.withUnsafeMutableBytes({ POSIX.read(fd, into: $0) }) {
            case .bytes: continue
            case .wouldBlock: return false
            case .closed: return true
            }
        }
    }

    /// Runs `body` on the unconsumed bytes.
    func withUnconsumed<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        body(UnsafeRawBufferPointer(rebasing: storage[readIndex..<count]))
    }

    /// Marks everything read as consumed.
    mutating func consumeAll() { readIndex = count }

    /// Makes room for at least `minimum` more bytes, moving unconsumed bytes to the front first.
    private mutating func reserve(_ minimum: Int) {
        if readIndex > 0 && storage.count - count < minimum {
            let remaining = count - readIndex
            if remaining > 0, let base = storage.baseAddress {
                base.copyMemory(from: base + readIndex, byteCount: remaining)
            }
            count = remaining
            readIndex = 0
        }
        if storage.count - count < minimum {
            resize(to: storage.count + max(minimum, storage.count))
        }
    }

    /// Moves the bytes read so far into new memory of `capacity` bytes.
    private mutating func resize(to capacity: Int) {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<count]))
        storage.deallocate()
        storage = larger
    }

    /// Drops consumed bytes once everything read has been consumed.
    mutating func resetIfDrained() {
        guard readIndex == count else { return }
        readIndex = 0
        count = 0
        if storage.count > 64 * 1024 { resize(to: Self.initialCapacity) }
    }
}
