/// Output waiting for one connection's socket: whole buffers, the first written from `offset`.
struct OutboundQueue {
    private var buffers: [[UInt8]] = []
    private var offset = 0
    private(set) var bytes = 0

    var isEmpty: Bool { buffers.isEmpty }

    /// The socket took only part of the first buffer: the next write starts inside it.
    var isResumingInsideABuffer: Bool { offset > 0 }

    /// Queues `buffer`, taken over rather than shared when the caller hands it on (a retain and a release less).
    mutating func enqueue(_ buffer: consuming [UInt8]) {
        guard !buffer.isEmpty else { return }
        bytes += buffer.count
        buffers.append(consume buffer)
    }

    /// Writes as much as the socket takes. Returns `false` when the peer is gone.
    mutating func flush(to fd: Int32) -> Bool {
        while !buffers.isEmpty {
            switch writeFirst(to: fd) {
            case .bytes(let count): consume(count)
            case .wouldBlock: return true
            case .closed: return false
            }
        }
        return true
    }

    /// Writes the first buffers in one gathered send: a response's head and body, or (when pipelined requests were
    /// answered together) up to ``maxGathered`` buffers of several responses.
    private func writeFirst(to fd: Int32) -> POSIX.IOResult {
        if buffers.count > 2 { return writeGathered(to: fd) }
        return buffers[0].withUnsafeBytes { first in
            let remaining = UnsafeRawBufferPointer(rebasing: first[offset...])
            guard buffers.count > 1 else { return POSIX.write(fd, remaining, nil) }
            return buffers[1].withUnsafeBytes { POSIX.write(fd, remaining, $0) }
        }
    }

    /// Buffers gathered into one write: 16 pipelined responses of a head and a body each.
    static let maxGathered = 32

    private func writeGathered(to fd: Int32) -> POSIX.IOResult {
        let count = min(buffers.count, Self.maxGathered)
        return withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: count) { parts in
            gather(from: 0, count: count, into: parts) { POSIX.write(fd, UnsafeBufferPointer(parts)) }
        }
    }

    /// Holds each buffer's bytes open, one nested closure per buffer, while `write` runs on them all.
    private func gather(
        from index: Int,
        count: Int,
        into parts: UnsafeMutableBufferPointer<UnsafeRawBufferPointer>,
        _ write: () -> POSIX.IOResult
    ) -> POSIX.IOResult {
        guard index < count else { return write() }
        return buffers[index].withUnsafeBytes { bytes in
            parts.initializeElement(at: index, to: index == 0 ? UnsafeRawBufferPointer(rebasing: bytes[offset...]) : bytes)
            return gather(from: index + 1, count: count, into: parts, write)
        }
    }

    private mutating func consume(_ count: Int) {
        var remaining = count
        bytes -= count
        // All of it written, as most often: emptied from the end, keeping the list's storage, where taking the
        // buffers off the front moved the rest down each time.
        if bytes == 0 {
            buffers.removeAllKeepingStorage()
            offset = 0
            return
        }
        while remaining > 0, !buffers.isEmpty {
            let available = buffers[0].count - offset
            if remaining >= available {
                remaining -= available
                buffers.removeFirst()
                offset = 0
            } else {
                offset += remaining
                remaining = 0
            }
        }
    }
}
