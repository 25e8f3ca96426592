/// A connection's deadlines: one timer, armed so that the request path never touches the heap.
extension Connection {
    /// The connection's timer fired: act on whatever is due, else sleep until it is.
    func timerFired(now: UInt64) {
        guard now >= deadline() else { return arm(now: now) }
        switch phase {
        case .delayed:
            guard let (reply, request, started) = delayed.take() else { return }
            lastActivity = now
            phase = .active
            watch(outbound.isEmpty ? .read : .readWrite)
            perform(reply, for: request, started: started)
            if isOpen, case .active = phase { process() }
        case .streaming where outbound.isEmpty && pullScheduled:
            // A paced stream's interval is up.
            pullStream()
        case .streaming where outbound.isEmpty && webSocket != nil:
            // No message either way for the channel's idle time.
            let seconds = (webSocket?.idleTimeout ?? 0) / 1_000_000_000
            webSocket?.close(code: WebSocketCloseCode.goingAway, reason: "no message for \(seconds) s")
        case .waiting where forwarding != nil && outbound.isEmpty:
            // The client is behind when the body has room, else the target.
            if forwarding?.hasRoom == true {
                abandonPending(.requestTimeout, "the request's body stopped arriving")
            } else {
                abandonPending(.gatewayTimeout, "the target took no more of the request's body in time")
            }
        case .waiting where outbound.isEmpty || now < lastActivity + loop.settings.writeTimeout:
            abandonPending(.gatewayTimeout, "no reply came from upstream in time")
        case .holding, .lingering, .streaming, .waiting:
            return close()
        case .active:
            if !outbound.isEmpty || requestStarted == nil { return close() }
            requestStarted = nil
            reject(.requestTimeout, "the request did not arrive in time", started: nil)
        }
        if isOpen { arm(now: now) }
    }

    /// When the connection needs attention if nothing happens: a pause's or the linger's end, or a
    /// timeout.
    func deadline() -> UInt64 {
        let settings = loop.settings
        switch phase {
        case .delayed(let until), .holding(let until), .lingering(let until):
            return until
        case .streaming:
            guard outbound.isEmpty else { return lastActivity + settings.writeTimeout }
            if let socket = webSocket { return lastActivity + socket.idleTimeout }
            return pullScheduled ? nextPull : .max
        case .waiting:
            var until = pending?.until ?? 0
            // A body passed on as it arrives gets the body's timeout between two reads, while it is the client's turn.
            if let body = forwarding, body.hasRoom { until = min(until, lastActivity + settings.bodyTimeout) }
            return outbound.isEmpty ? until : min(until, lastActivity + settings.writeTimeout)
        case .active:
            if !outbound.isEmpty { return lastActivity + settings.writeTimeout }
            if let started = requestStarted {
                return started + (parser.isReadingBody ? settings.bodyTimeout : settings.headerTimeout)
            }
            return loop.stopping ? 0 : lastActivity + settings.idleTimeout
        }
    }

    /// Arms the timer no later than any deadline the connection can reach without an explicit
    /// transition, so the request path never touches the timer heap.
    func arm(now: UInt64) {
        var requestStart: UInt64?
        if case .active = phase { requestStart = requestStarted }
        schedule(at: Self.wakeTime(deadline: deadline(), now: now, requestStarted: requestStart, settings: loop.settings))
    }

    /// When to wake a connection whose current deadline is `deadline`. Every activity moves a deadline to
    /// at least `shortestTimeout` ahead, so waking by then catches any deadline that activity sets
    /// later; a request in progress may also switch from its head's timeout to its body's, both counted
    /// from its first byte, hence the second bound while that moment is still ahead. Never in the past
    /// unless the deadline is: a connection wakes at most once per `shortestTimeout` while nothing is due.
    static func wakeTime(deadline: UInt64, now: UInt64, requestStarted: UInt64?, settings: ServerSettings) -> UInt64 {
        var at = min(deadline, now + settings.shortestTimeout)
        if let started = requestStarted, started + settings.shortestRequestTimeout > now {
            at = min(at, started + settings.shortestRequestTimeout)
        }
        return at
    }

    func schedule(at deadline: UInt64) {
        token = loop.nextTimerToken()
        loop.timers.schedule(.init(deadline: deadline, fd: fd, token: token))
    }
}
