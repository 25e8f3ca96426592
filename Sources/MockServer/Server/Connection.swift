/// The state of one client connection, owned by one event loop thread. Only this type touches both
/// the socket's bytes and the parser.
final class Connection {
    // The buffers and the parser are marked `@exclusivity(unchecked)`: they are touched on every
    // request, only ever by the owning loop's thread, and no access to one of them spans another
    // access to the same one, so the runtime's dynamic exclusivity check would only cost time.
    enum Phase {
        /// Reading requests and writing responses.
        case active
        /// Waiting for a `delayMs` to pass before carrying out ``Connection/delayedReply``.
        case delayed
        /// Holding the connection open without answering (`no_response`).
        case holding
        /// Response sent and FIN queued; waiting for the peer's FIN before closing, so a response is
        /// never cut short by a reset caused by unread pipelined bytes.
        case lingering(deadline: UInt64)
    }

    let fd: Int32
    /// Kept small (no payloads but the linger deadline): it is matched several times per request.
    var phase = Phase.active
    /// The reply a `.delayed` connection carries out when its timer fires.
    var delayedReply: (reply: Reply, request: HTTPRequest, started: UInt64)?
    /// The readiness the poller reports for this socket; changed only when it differs.
    var interest = Interest.read
    @exclusivity(unchecked) var parser: HTTPRequestParser
    /// Bytes read; `inbound[readIndex..<inboundCount]` are not yet consumed by a request.
    @exclusivity(unchecked) var inbound: [UInt8]
    var inboundCount = 0
    var readIndex = 0
    /// Queued output: whole buffers, the first of which is written from `outboundOffset`.
    @exclusivity(unchecked) var outbound: [[UInt8]] = []
    var outboundOffset = 0
    var outboundBytes = 0
    var closeAfterFlush = false
    var continueSent = false
    /// When the current request's first byte arrived (for the header and body timeouts), or `nil`.
    var requestStarted: UInt64?
    /// The last read, or the last write that made progress; drives the idle and write timeouts.
    var lastActivity: UInt64
    /// Invalidates timers of a phase the connection has left.
    var timerToken: UInt64 = 0

    /// Whether the peer is on this machine's loopback interface (see ``AdminAccess``).
    let fromLoopback: Bool

    init(fd: Int32, limits: HTTPLimits, now: UInt64, fromLoopback: Bool) {
        self.fd = fd
        self.fromLoopback = fromLoopback
        self.parser = HTTPRequestParser(limits: limits)
        self.inbound = [UInt8](repeating: 0, count: 4096)
        self.lastActivity = now
    }

    var hasUnconsumedInput: Bool { readIndex < inboundCount }

    /// Waiting out a delay or holding the connection: no request is read or answered meanwhile.
    var isPaused: Bool {
        switch phase {
        case .delayed, .holding: true
        case .active, .lingering: false
        }
    }

    /// Whether the connection is between requests with nothing pending: safe to close at shutdown.
    var isIdle: Bool {
        if case .active = phase { return !hasUnconsumedInput && outbound.isEmpty && !parser.isReadingBody }
        return false
    }

    /// Makes room for at least `minimum` more bytes, moving unconsumed bytes to the front first.
    func reserveInbound(_ minimum: Int) {
        if readIndex > 0 && inbound.count - inboundCount < minimum {
            let remaining = inboundCount - readIndex
            if remaining > 0 {
                inbound.withUnsafeMutableBytes { bytes in
                    guard let base = bytes.baseAddress else { return }
                    base.copyMemory(from: base + readIndex, byteCount: remaining)
                }
            }
            inboundCount = remaining
            readIndex = 0
        }
        if inbound.count - inboundCount < minimum {
            inbound.append(contentsOf: repeatElement(0, count: max(minimum, inbound.count)))
        }
    }

    /// Drops consumed bytes once everything read has been consumed.
    func resetInboundIfDrained() {
        if readIndex == inboundCount {
            readIndex = 0
            inboundCount = 0
            if inbound.count > 64 * 1024 { inbound = [UInt8](repeating: 0, count: 4096) }
        }
    }

    func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        outbound.append(bytes)
        outboundBytes += bytes.count
    }

    /// Writes as much queued output as the socket takes. Returns `false` when the peer is gone.
    func flush() -> Bool {
        while !outbound.isEmpty {
            let result = writeQueued()
            switch result {
            case .bytes(let count):
                consumeOutbound(count)
            case .wouldBlock:
                return true
            case .closed:
                return false
            }
        }
        return true
    }

    /// Writes the first two queued buffers (a response's head and body) in one writev.
    private func writeQueued() -> POSIX.IOResult {
        outbound[0].withUnsafeBytes { first in
            let remaining = UnsafeRawBufferPointer(rebasing: first[outboundOffset...])
            guard outbound.count > 1 else { return POSIX.write(fd, remaining, nil) }
            return outbound[1].withUnsafeBytes { POSIX.write(fd, remaining, $0) }
        }
    }

    private func consumeOutbound(_ count: Int) {
        var remaining = count
        outboundBytes -= count
        while remaining > 0, let first = outbound.first {
            let available = first.count - outboundOffset
            if remaining >= available {
                remaining -= available
                outbound.removeFirst()
                outboundOffset = 0
            } else {
                outboundOffset += remaining
                remaining = 0
            }
        }
    }
}
