import HTTPCore

/// Connections to the target that answered their last request and may carry another: taken for the next request,
/// so a run of requests costs one TCP handshake rather than one each. Bounded (the oldest closes past
/// ``capacity``); one idle longer than ``maximumIdleNanoseconds``, or that the target has closed (readable while
/// idle: its end of file, or bytes nobody asked for), is closed rather than used.
final class IdleConnections: Sendable {
    /// The most connections kept idle.
    let capacity: Int
    /// How long one may stay idle: below the keep-alive timeout of common servers (nginx 75 s, Node.js 5 s
    /// closes first, and is caught when taken).
    static let maximumIdleNanoseconds: UInt64 = 15_000_000_000

    private let idle = Locked<[(fd: Int32, since: UInt64)]>([])

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    deinit {
        for connection in idle.current { POSIX.close(connection.fd) }
    }

    /// An open connection to use, newest first, or `nil`.
    func take() -> Int32? {
        let now = POSIX.monotonicNanoseconds()
        while let connection = idle.withValue({ $0.popLast() }) {
            // Readable while idle: the target closed it (or sent what nobody asked for).
            if POSIX.isReadable(connection.fd) || now &- connection.since > Self.maximumIdleNanoseconds {
                POSIX.close(connection.fd)
                continue
            }
            return connection.fd
        }
        return nil
    }

    /// How many are kept now.
    var count: Int { idle.withValue { $0.count } }

    /// Keeps `fd` for a later request.
    func put(_ fd: Int32) {
        let evicted = idle.withValue { idle -> Int32? in
            idle.append((fd, POSIX.monotonicNanoseconds()))
            return idle.count > capacity ? idle.removeFirst().fd : nil
        }
        evicted.map(POSIX.close)
    }
}
