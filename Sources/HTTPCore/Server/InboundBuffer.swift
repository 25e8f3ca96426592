/// The bytes read from one connection: `bytes[readIndex..<count]` are read but not yet consumed by a
/// request. Grows for large requests and shrinks back once drained.
struct InboundBuffer {
    private(set) var bytes = [UInt8](repeating: 0, count: 4096)
    private(set) var count = 0
    var readIndex = 0

    var hasUnconsumed: Bool { readIndex < count }
    var unconsumedCount: Int { count - readIndex }

    /// Reads what the socket has into free space (at least 4 KiB of it).
    /// - Returns: The read's result, and whether it filled all the free space (more may be waiting).
    mutating func read(from fd: Int32) -> (result: POSIX.IOResult, filled: Bool) {
        reserve(4096)
        let start = count
        let result = bytes.withUnsafeMutableBytes {
            POSIX.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
        }
        guard case .bytes(let read) = result else { return (result, false) }
        count += read
        return (result, count == bytes.count)
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
        bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[readIndex..<count])) }
    }

    /// Marks everything read as consumed.
    mutating func consumeAll() { readIndex = count }

    /// Makes room for at least `minimum` more bytes, moving unconsumed bytes to the front first.
    private mutating func reserve(_ minimum: Int) {
        if readIndex > 0 && bytes.count - count < minimum {
            let remaining = count - readIndex
            if remaining > 0 {
                let from = readIndex
                bytes.withUnsafeMutableBytes { buffer in
                    guard let base = buffer.baseAddress else { return }
                    base.copyMemory(from: base + from, byteCount: remaining)
                }
            }
            count = remaining
            readIndex = 0
        }
        if bytes.count - count < minimum {
            bytes.append(contentsOf: repeatElement(0, count: max(minimum, bytes.count)))
        }
    }

    /// Drops consumed bytes once everything read has been consumed.
    mutating func resetIfDrained() {
        guard readIndex == count else { return }
        readIndex = 0
        count = 0
        if bytes.count > 64 * 1024 { bytes = [UInt8](repeating: 0, count: 4096) }
    }
}
