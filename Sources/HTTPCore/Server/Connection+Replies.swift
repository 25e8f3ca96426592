/// Carrying out a ``Reply``: writing responses and streams, playing transport faults, closing politely.
extension Connection {
    func perform(_ reply: Reply, for request: HTTPRequest, started: UInt64?) {
        var plan = loop.date.withCurrent(at: loop.wokeAt) { date in
            // The last head's storage, written long since when requests come one at a time: taken out so that the
            // plan holds the only reference and writes the new head into it, then kept for the next response.
            var scratch: [UInt8] = []
            swap(&scratch, &headStorage)
            return WirePlan(reply, for: request, stopping: loop.stopping, date: date, reusing: consume scratch)
        }
        headStorage = plan.head
        plan.unused?.cancel()
        let byteCount = plan.byteCount
        // Handed over, not shared: the queue and ``headStorage`` then hold the only references.
        outbound.enqueue(plan.takeHead())
        outbound.enqueue(plan.takeBody())
        switch plan.after {
        case .keepAlive:
            break
        case .close:
            closeAfterFlush = true
        case .reset:
            // Responses held for requests pipelined before this one go first, as far as the socket takes them.
            if heldWrites {
                heldWrites = false
                _ = outbound.flush(to: fd)
            }
            loop.forget(self)
            POSIX.abort(fd)
        case .hold(let milliseconds):
            let until = POSIX.monotonicNanoseconds() + UInt64(milliseconds) * 1_000_000
            phase = .holding(until: until)
            watch(.read)
            schedule(at: until)
        case .stream(let body, let chunked, let closeAfter):
            closeAfterFlush = closeAfter
            stream = (body, chunked)
            phase = .streaming
            // A new stream's first part goes at once, whatever the last one's pace was.
            nextPull = 0
            pullScheduled = false
        case .upgrade(let channel):
            // Accepted as the server stops: closed at once with 1001, after the 101, rather than cut at the grace.
            if loop.stopping { channel.close(code: WebSocketCloseCode.goingAway, reason: "the server is stopping") }
            closeAfterFlush = true
            stream = (channel.output, false)
            phase = .streaming
            webSocket = channel
            frameReader = WebSocketFrameReader(maxMessageBytes: channel.maxMessageBytes)
            nextPull = 0
            pullScheduled = false
        case .wait(let reply):
            // Not sent yet: the responder hears of it (didSend) when the final reply is carried out.
            return wait(for: reply, request: request, started: started)
        }
        loop.responder.didSend(reply, for: request, bytes: byteCount, started: started)
        guard isOpen else { return }
        switch phase {
        // Held only below the queue's limit: past it, everything queued is written now, so that the connection
        // goes on with the requests it already has once the socket takes it all.
        case .active where holdingWrites && outbound.bytes <= loop.settings.maxQueuedOutput: heldWrites = true
        case .active: write()
        case .streaming:
            write()
            if let channel = webSocket, isOpen {
                // The idle limit replaces the request timeouts the timer was armed for.
                lastActivity = POSIX.monotonicNanoseconds()
                arm(now: lastActivity)
                channel.handler.opened(channel)
                // Frames the client sent right behind its request.
                readFrames(fromSocket: false)
            }
            pullStream()
        case .delayed, .holding, .lingering, .waiting: break
        }
    }

    /// Writes what the stream has produced, as one chunk; with nothing produced, waits to be woken by the
    /// next send. A stream with a source is asked at most once per its interval: sooner, the connection's
    /// timer asks it when the interval is up.
    func pullStream() {
        // A loop, not a recursion: a producer as fast as the client would otherwise grow the stack without end. After
        // a few rounds the connection yields its turn and is woken for the next.
        for _ in 0..<Self.pullsPerTurn {
            guard pullStreamOnce() else { return }
        }
        loop.connectionReady(fd: fd)
    }

    /// How many parts of a stream a connection writes in one turn of its loop.
    static let pullsPerTurn = 16

    /// One pull of ``pullStream()``. - Returns: Whether to pull again at once.
    private func pullStreamOnce() -> Bool {
        guard case .streaming = phase, let (body, chunked) = stream, outbound.isEmpty else { return false }
        if body.isPulled {
            let now = POSIX.monotonicNanoseconds()
            // A finished or dropped stream is answered at once.
            if now < nextPull && body.isOpen {
                pullScheduled = true
                schedule(at: nextPull)
                watch(.read)
                return false
            }
            pullScheduled = false
            // On a grid of the interval, not counted from now: every reader of a busy producer takes its turn
            // at the same moment, so they are sent the same newest part (which the journal encodes once).
            // A body with an end keeps its own pace instead: each part one interval after the last.
            if body.interval == 0 {
                nextPull = now
            } else if body.hasEnd {
                nextPull = (nextPull == 0 ? now : nextPull) + body.interval
            } else {
                nextPull = (now / body.interval + 1) * body.interval
            }
        }
        switch body.take(waker: .init(loop: loop, fd: fd)) {
        case .nothing:
            watch(.read)
        case .chunks(let chunks):
            // One buffer per turn, whatever the number of parts: one write for a batch of events.
            outbound.enqueue(WirePlan.chunk(joining: chunks, chunked: chunked))
            // A stream that was quiet for long is active again: its write timeout counts from now.
            lastActivity = POSIX.monotonicNanoseconds()
            write()
            // A source that had something may have more by the next turn: ask again then, woken or not (at
            // once when the stream is ending).
            if body.isPulled, isOpen, outbound.isEmpty {
                guard body.isOpen else { return true }
                pullScheduled = true
                schedule(at: nextPull)
            } else if isOpen, outbound.isEmpty {
                // All written: see at once whether more came, or the end, and be woken for what comes later (a
                // connection that forgot its waker, ``ReplyStream/forgetWaker()``, has none until then).
                return true
            }
        case .finished:
            stream = nil
            phase = .active
            if webSocket != nil { endWebSocket() }
            lastActivity = POSIX.monotonicNanoseconds()
            if loop.stopping { closeAfterFlush = true }
            if chunked { outbound.enqueue(HTTPResponseEncoder.lastChunk) }
            write()
            if isOpen, case .active = phase, outbound.isEmpty, inbound.hasUnconsumed { process() }
        case .dropped:
            close()
        case .reset:
            // What was queued goes first, as far as the socket takes it; then the reset.
            _ = outbound.flush(to: fd)
            close(reset: true)
        }
        return false
    }

    func write() {
        heldWrites = false
        guard outbound.flush(to: fd) else { return close() }
        afterFlush()
    }

    func afterFlush() {
        if !outbound.isEmpty {
            return watch(.readWrite)
        }
        // Stopping: a connection whose last response just drained goes now, not at its next timer.
        if loop.stopping, !closeAfterFlush, isIdle { return close() }
        if closeAfterFlush {
            if case .lingering = phase { return }
            if case .streaming = phase { return watch(.read) }
            POSIX.shutdownWrite(fd)
            let until = POSIX.monotonicNanoseconds() + loop.settings.lingerTimeout
            phase = .lingering(until: until)
            watch(.read)
            return schedule(at: until)
        }
        watch(.read)
    }

    /// Changes what the poller reports for this socket, skipping the system call when nothing changes.
    func watch(_ newInterest: Interest) {
        guard interest != newInterest else { return }
        interest = newInterest
        loop.poller.modify(fd, newInterest)
    }

    /// Closes the connection: politely, or with a TCP reset (`reset`, SO_LINGER 0).
    func close(reset: Bool = false) {
        guard isOpen else { return }
        stream?.body.cancel()
        stream = nil
        webSocket.take()?.lost()
        if case .stream(_, let body)? = delayed?.reply.action { body.cancel() }
        if case .later(let reply)? = delayed?.reply.action { reply.cancel() }
        if case .upgrade(_, let channel)? = delayed?.reply.action { channel.lost() }
        delayed = nil
        pending.take()?.reply.cancel()
        forwarding.take()?.fail("the client's connection closed")
        loop.forget(self)
        if reset { POSIX.abort(fd) } else { POSIX.close(fd) }
    }
}
