/// Accepting connections from the shared listener, within the connection budget.
extension EventLoop {
    func acceptAll() {
        guard !stopping else { return }
        for _ in 0..<64 {
            guard budget.take() else { return pauseAccepting() }
            switch POSIX.accept(listener) {
            case .accepted(let fd):
                do {
                    try poller.add(fd, .read)
                    connections[fd] = Connection(fd: fd, loop: self, now: POSIX.monotonicNanoseconds(),
                                                 fromLoopback: POSIX.isLoopbackPeer(fd))
                } catch {
                    POSIX.close(fd)
                    budget.release()
                }
            case .wouldBlock:
                budget.release()
                return
            case .exhausted:
                budget.release()
                pauseAccepting()
                return
            case .failed:
                budget.release()
                return
            }
        }
    }

    /// Out of descriptors: stop watching the listener for a moment instead of spinning on it. Pending
    /// clients wait in the backlog, connections already open go on, and accepting resumes once the
    /// pause is over (see `resumeAcceptingIfDue`).
    private func pauseAccepting() {
        guard acceptPausedUntil == 0 else { return }
        poller.remove(listener)
        let now = POSIX.monotonicNanoseconds()
        acceptPausedUntil = now + Self.acceptPause
        if budget.shouldWarn(now: now) {
            let limit = POSIX.descriptorLimit().map(String.init) ?? "unknown"
            LogWriter.shared.write("mock-server: out of file descriptors (limit \(limit), \(budget.capacity) for "
                + "connections); new connections wait while open ones go on (raise it with ulimit -n)",
                toStandardError: true)
        }
    }

    func resumeAcceptingIfDue(now: UInt64) {
        guard acceptPausedUntil != 0, now >= acceptPausedUntil, !stopping else { return }
        acceptPausedUntil = 0
        do {
            try poller.add(listener, .read, exclusive: true)
        } catch {
            acceptPausedUntil = now + Self.acceptPause
        }
    }

    static let acceptPause: UInt64 = 100_000_000
}
