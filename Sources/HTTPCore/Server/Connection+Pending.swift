/// Waiting for a ``PendingReply``: the connection reads no further request until another thread completes it, then
/// carries it out on its loop and goes on with the requests that waited; it gives up at the reply's timeout, at
/// shutdown, or when the client leaves (``Connection/close()`` cancels it).
extension Connection {
    /// Starts waiting for `reply`, or carries it out at once if it has already arrived.
    func wait(for reply: PendingReply, request: HTTPRequest, started: UInt64?) {
        let now = POSIX.monotonicNanoseconds()
        pending = (reply, request, started, now + reply.timeout)
        phase = .waiting
        if outbound.isEmpty { watch(.read) } else { write() }
        guard isOpen else { return }
        schedule(at: deadline())
        resumePending()
    }

    /// Carries out the pending reply if it has arrived, then reads the requests that waited behind it.
    func resumePending() {
        guard case .waiting = phase, let waiting = pending,
              var reply = waiting.reply.take(waker: .init(loop: loop, fd: fd)) else { return }
        pending = nil
        phase = .active
        if let body = forwarding.take() {
            // Answered before its whole body came (the backend answered early, or failed): the rest is not read, so
            // no request can follow it on this connection.
            body.fail("the request was answered before its whole body arrived")
            reply.closeAfter = true
        }
        lastActivity = POSIX.monotonicNanoseconds()
        perform(reply, for: waiting.request, started: waiting.started)
        guard isOpen else { return }
        arm(now: lastActivity)
        if case .active = phase, outbound.isEmpty, inbound.hasUnconsumed { process() }
    }

    /// Gives up on the pending reply and answers `status` through the responder's ``HTTPResponder/reject(_:reason:)``,
    /// then closes: a reply that completes later is dropped.
    func abandonPending(_ status: HTTPStatus, _ reason: String) {
        guard let waiting = pending.take() else { return }
        waiting.reply.cancel()
        forwarding.take()?.fail(reason)
        phase = .active
        var reply = loop.responder.reject(status, reason: reason)
        reply.closeAfter = true
        inbound.consumeAll()
        perform(reply, for: waiting.request, started: waiting.started)
    }

    /// Another thread has something for this connection: its stream's next part or its pending reply.
    func wake() {
        switch phase {
        case .streaming: pullStream()
        case .waiting:
            resumePending()
            guard forwarding != nil else { return }
            // The body's consumer took what waited: the client's time to send more counts from now.
            lastActivity = POSIX.monotonicNanoseconds()
            forwardBody()
        case .active, .delayed, .holding, .lingering: break
        }
    }
}
