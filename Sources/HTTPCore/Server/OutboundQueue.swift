/// Output waiting for one connection's socket: whole buffers, the first written from `offset`.
struct OutboundQueue {
    private var buffers: [[UInt8]] = []
    private var offset = 0
    private(set) var bytes = 0

    var isEmpty: Bool { buffers.isEmpty }

    mutating func enqueue(_ buffer: [UInt8]) {
        guard !buffer.isEmpty else { return }
        buffers.append(buffer)
        bytes += buffer.count
    }

    /// Writes as much as the socket takes. Returns `false` when the peer is gone.
    mutating func flush(to fd: Int32) -> Bool {
        while !buffers.isEmpty {
            switch writeFirstTwo(to: fd) {
            case .bytes(let count): consume(count)
            case .wouldBlock: return true
            case .closed: return false
            }
        }
        return true
    }

    /// Writes the first two buffers (a response's head and body) in one writev.
    private func writeFirstTwo(to fd: Int32) -> POSIX.IOResult {
        buffers[0].withUnsafeBytes { first in
            let remaining = UnsafeRawBufferPointer(rebasing: first[offset...])
            guard buffers.count > 1 else { return POSIX.write(fd, remaining, nil) }
            return buffers[1].withUnsafeBytes { POSIX.write(fd, remaining, $0) }
        }
    }

    private mutating func consume(_ count: Int) {
        var remaining = count
        bytes -= count
        while remaining > 0, let first = buffers.first {
            let available = first.count - offset
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
