/// Which readiness a loop wants to hear about for a descriptor.
package enum Interest: Equatable {
    case read
    case readWrite
    /// Only writability (a peer that half-closed, with output still queued).
    case write
    /// Nothing. epoll still reports a hang-up or error; kqueue and Darwin's poll(2) report nothing at
    /// all, so the loop uses it only where missing a hang-up costs nothing (see `EventLoop`).
    case none
}

/// One readiness report. A backend may report one descriptor twice in one wait (kqueue reports read
/// and write separately); handling an event must be harmless when the other was handled first.
package struct ReadinessEvent {
    package let fd: Int32
    package let readable: Bool
    package let writable: Bool
    /// An error or hang-up: the next read or write on the descriptor tells which.
    package let failed: Bool
}

/// A level-triggered readiness API (epoll, kqueue or poll), one per event loop, used only on the loop's
/// own thread.
protocol ReadinessQueue: AnyObject {
    /// - Parameter exclusive: wake only one of the loops waiting on a shared descriptor, where the
    ///   backend can (epoll's EPOLLEXCLUSIVE); the others ignore it.
    func add(_ fd: Int32, _ interest: Interest, exclusive: Bool) throws(SocketError)
    func modify(_ fd: Int32, _ interest: Interest)
    /// Forgets `fd`; called before the descriptor is closed.
    func remove(_ fd: Int32)
    /// Waits up to `timeoutMilliseconds` (-1: no limit) and replaces `events` with what is ready. A
    /// signal interrupting the wait returns no events.
    /// - Throws: ``SocketError`` when the wait itself fails; the loop cannot go on.
    func wait(timeoutMilliseconds: Int32, into events: inout [ReadinessEvent]) throws(SocketError)
}

extension ReadinessQueue {
    func add(_ fd: Int32, _ interest: Interest) throws(SocketError) {
        try add(fd, interest, exclusive: false)
    }
}
