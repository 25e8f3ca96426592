import ContractModel

/// One thread's readiness loop: accepts from the shared listener, reads, parses, answers and times
/// out its own connections. Nothing here blocks; a slow client only ever waits on its own socket.
final class EventLoop: @unchecked Sendable {
    // @unchecked: after `run()` starts, every stored property except `stopRequested` is used only on
    // the loop's own thread; `stopRequested` is a `Locked` value and the wake pipe is a file descriptor.

    struct Settings: Sendable {
        var limits = HTTPLimits()
        var headerTimeout: UInt64 = 10_000_000_000
        var bodyTimeout: UInt64 = 30_000_000_000
        var idleTimeout: UInt64 = 60_000_000_000
        var writeTimeout: UInt64 = 30_000_000_000
        var shutdownGrace: UInt64 = 5_000_000_000
        /// Output queued beyond this pauses the reading of further pipelined requests.
        var maxQueuedOutput = 4 * 1024 * 1024
    }

    let poller: any ReadinessQueue
    let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Readable when a fixture may have changed (see ``FixtureStore/refresh()``), or -1.
    private let fixtureChanges: Int32
    let handler: RequestHandler
    let log: AccessLog
    let budget: ConnectionBudget
    let settings: Settings
    private let stopRequested = Locked(false)

    /// Looked up several times per request, only on the loop's thread, never across another access
    /// to itself (loops over it iterate a copy): hence no dynamic exclusivity check.
    @exclusivity(unchecked) var connections = ConnectionTable()
    private var timers = TimerQueue()
    private var events: [ReadinessEvent] = []
    /// Read for every response, only on the loop's thread: no dynamic exclusivity check either.
    @exclusivity(unchecked) var date = HTTPDate()
    private var nextSweep: UInt64 = 0
    var stopping = false
    private var stopDeadline: UInt64 = 0
    /// While out of descriptors, the listener is not watched until this time (0: it is watched).
    var acceptPausedUntil: UInt64 = 0

    init(
        listener: Int32,
        fixtureChanges: Int32?,
        handler: RequestHandler,
        log: AccessLog,
        settings: Settings,
        backend: IOBackend,
        budget: ConnectionBudget
    ) throws(SocketError) {
        self.budget = budget
        self.poller = try backend.makeQueue()
        self.listener = listener
        self.fixtureChanges = fixtureChanges ?? -1
        (wakeRead, wakeWrite) = try POSIX.makeWakePipe()
        self.handler = handler
        self.log = log
        self.settings = settings
        do {
            try poller.add(listener, .read, exclusive: true)
            try poller.add(wakeRead, .read)
            if let fixtureChanges { try poller.add(fixtureChanges, .read) }
        } catch {
            POSIX.close(wakeRead)
            POSIX.close(wakeWrite)
            throw error
        }
    }

    /// The wake pipe lives as long as the loop: `requestStop()` may write to it after `run()` returned.
    deinit {
        POSIX.close(wakeRead)
        POSIX.close(wakeWrite)
    }

    /// Asks the loop to stop accepting, finish in-flight responses and return from `run()`.
    func requestStop() {
        stopRequested.withValue { $0 = true }
        POSIX.wake(wakeWrite)
    }

    /// Runs until stopped. A failing wait (not an interrupted one) ends the loop with a line on standard
    /// error rather than spinning a core.
    func run() {
        while true {
            let now = POSIX.monotonicNanoseconds()
            if stopping && (connections.isEmpty || now >= stopDeadline) { break }
            do {
                try poller.wait(timeoutMilliseconds: waitTimeout(now: now), into: &events)
            } catch {
                POSIX.writeLine("mock-server: event loop stopped: \(error)", toStandardError: true)
                break
            }
            // Fixture changes first: a request that arrived after an edit must see the edit.
            if fixtureChanges >= 0, events.contains(where: { $0.fd == fixtureChanges }) {
                handler.fixtures.refresh()
            }
            for event in events {
                if event.fd == fixtureChanges {
                    continue
                } else if event.fd == listener {
                    acceptAll()
                } else if event.fd == wakeRead {
                    POSIX.drain(wakeRead)
                    if stopRequested.current && !stopping { beginStop() }
                } else if let connection = connections[event.fd] {
                    service(connection, event)
                }
            }
            let after = POSIX.monotonicNanoseconds()
            for timer in timers.popDue(now: after) { fire(timer) }
            resumeAcceptingIfDue(now: after)
            if after >= nextSweep {
                sweep(now: after)
                nextSweep = after + 250_000_000
            }
        }
        for connection in connections.all { close(connection) }
    }

    private func waitTimeout(now: UInt64) -> Int32 {
        var deadline = nextSweep
        if acceptPausedUntil != 0 { deadline = min(deadline, acceptPausedUntil) }
        if let next = timers.nextDeadline { deadline = min(deadline, next) }
        guard deadline > now else { return 0 }
        return Int32(min((deadline - now + 999_999) / 1_000_000, 1_000))
    }

    // MARK: - Reading and writing

    private func service(_ connection: Connection, _ event: ReadinessEvent) {
        if event.writable || (event.failed && !connection.outbound.isEmpty) {
            guard connection.flush() else { return close(connection) }
            // Write progress counts as activity, so a slow reader of a large body is not cut off.
            connection.lastActivity = POSIX.monotonicNanoseconds()
            afterFlush(connection)
            guard connections[connection.fd] === connection else { return }
            // Output drained: resume pipelined requests that waited for room (never from inside
            // `process`, so a long pipeline cannot recurse).
            if case .active = connection.phase, connection.outbound.isEmpty, connection.hasUnconsumedInput {
                process(connection)
            }
        }
        if event.readable || event.failed {
            // An error or full hang-up while paused: nobody is left to answer.
            if event.failed && connection.isPaused { return close(connection) }
            readAvailable(connection)
        }
    }

    private func readAvailable(_ connection: Connection) {
        switch connection.phase {
        case .delayed, .holding:
            return readWhilePaused(connection)
        case .lingering:
            return discardUntilClosed(connection)
        case .active:
            break
        }
        while true {
            connection.reserveInbound(4096)
            let start = connection.inboundCount
            let result = connection.inbound.withUnsafeMutableBytes {
                POSIX.read(connection.fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
            }
            switch result {
            case .bytes(let count):
                let now = POSIX.monotonicNanoseconds()
                if connection.requestStarted == nil { connection.requestStarted = now }
                connection.inboundCount += count
                connection.lastActivity = now
                if count < connection.inbound.count - start { return process(connection) }
                process(connection)
                guard connections[connection.fd] === connection, case .active = connection.phase else { return }
            case .wouldBlock:
                return
            case .closed:
                // The peer half-closed: finish writing what is queued, then close.
                guard !connection.outbound.isEmpty else { return close(connection) }
                connection.closeAfterFlush = true
                watch(connection, .write)
                return
            }
        }
    }

    /// A paused connection (a delayed reply, a held `no_response`) stays readable, because kqueue and
    /// Darwin's poll(2) report no hang-up for a descriptor nobody reads: a client that gives up is
    /// noticed at once on every backend, and its connection closed. Bytes that arrive meanwhile (a
    /// pipelined request) are kept for after the pause; past ``pausedInputLimit`` the connection stops
    /// reading, and from then on only epoll still reports a hang-up before the pause ends.
    private func readWhilePaused(_ connection: Connection) {
        while connection.inboundCount - connection.readIndex < Self.pausedInputLimit {
            connection.reserveInbound(4096)
            let start = connection.inboundCount
            let result = connection.inbound.withUnsafeMutableBytes {
                POSIX.read(connection.fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
            }
            switch result {
            case .bytes(let count): connection.inboundCount += count
            case .wouldBlock: return
            case .closed: return close(connection)
            }
        }
        watch(connection, .none)
    }

    static let pausedInputLimit = 64 * 1024

    /// Parses and answers every complete request in the buffer, in order, until one must wait.
    func process(_ connection: Connection) {
        while case .active = connection.phase, !connection.closeAfterFlush,
              connection.outboundBytes <= settings.maxQueuedOutput
        {
            let outcome = connection.inbound.withUnsafeBytes {
                connection.parser.parse(UnsafeRawBufferPointer(rebasing: $0[connection.readIndex..<connection.inboundCount]))
            }
            switch consume outcome {
            case .needMore:
                if connection.parser.awaitsContinue && !connection.continueSent {
                    connection.continueSent = true
                    connection.enqueue(HTTPResponseEncoder.continueHead)
                    write(connection)
                }
                if !connection.hasUnconsumedInput { connection.requestStarted = nil }
                connection.resetInboundIfDrained()
                return
            case .failure(let error):
                return reject(connection, error.status, error.reason, started: connection.requestStarted)
            case .request(let request, let consumed):
                let started = connection.requestStarted ?? POSIX.monotonicNanoseconds()
                connection.readIndex += consumed
                connection.continueSent = false
                connection.requestStarted = connection.hasUnconsumedInput ? POSIX.monotonicNanoseconds() : nil
                var reply = handler.handle(request, fromLoopback: connection.fromLoopback)
                // Journal on arrival, so a request is visible while its reply is still delayed or held.
                if let entry = reply.entry.take() {
                    reply.reason = entry.reason
                    handler.journal.append(entry)
                }
                if reply.delayMs > 0 {
                    connection.phase = .delayed
                    connection.delayedReply = (reply, request, started)
                    watch(connection, .read)
                    schedule(connection, afterMilliseconds: reply.delayMs)
                    return
                }
                perform(reply, for: request, on: connection, started: started)
                guard connections[connection.fd] === connection else { return }
            }
        }
        connection.resetInboundIfDrained()
    }

    func schedule(_ connection: Connection, afterMilliseconds milliseconds: Int) {
        connection.timerToken &+= 1
        timers.schedule(.init(deadline: POSIX.monotonicNanoseconds() + UInt64(milliseconds) * 1_000_000,
                              fd: connection.fd, token: connection.timerToken))
    }

    private func fire(_ timer: TimerQueue.Timer) {
        guard let connection = connections[timer.fd], connection.timerToken == timer.token else { return }
        switch connection.phase {
        case .delayed:
            guard let (reply, request, started) = connection.delayedReply else { return }
            connection.delayedReply = nil
            connection.phase = .active
            watch(connection, connection.outbound.isEmpty ? .read : .readWrite)
            perform(reply, for: request, on: connection, started: started)
            if connections[connection.fd] === connection, case .active = connection.phase { process(connection) }
        case .holding:
            close(connection)
        case .active, .lingering:
            break
        }
    }

    // MARK: - Timeouts and shutdown

    private func sweep(now: UInt64) {
        for connection in connections.all {
            switch connection.phase {
            case .lingering(let deadline):
                if now >= deadline { close(connection) }
            case .delayed, .holding:
                continue
            case .active:
                if !connection.outbound.isEmpty {
                    if now - connection.lastActivity > settings.writeTimeout { close(connection) }
                } else if let started = connection.requestStarted {
                    let limit = connection.parser.isReadingBody ? settings.bodyTimeout : settings.headerTimeout
                    if now - started > limit { timeOut(connection) }
                } else if now - connection.lastActivity > settings.idleTimeout || stopping {
                    close(connection)
                }
            }
        }
    }

    /// Answers 408 to a request that did not arrive in time, then closes.
    private func timeOut(_ connection: Connection) {
        connection.requestStarted = nil
        reject(connection, .requestTimeout, "the request did not arrive in time", started: nil)
    }

    /// Answers a request that could not be read (400, 408, 413, 414, 431) and closes; the journal and
    /// the access log record it with the reason, as method and target `-`.
    private func reject(_ connection: Connection, _ status: HTTPStatus, _ reason: String, started: UInt64?) {
        var reply = Reply(action: .respond(ServerJSON.error(status, reason)), closeAfter: true)
        reply.reason = reason
        let request = HTTPRequest(method: "-", target: "-", path: "", query: nil, version: .http11,
                                  headers: HTTPHeaders(), body: [])
        handler.journal.append(JournalEntry(method: "-", target: "-", fields: [], bodySize: 0, endpoint: nil,
                                            scenario: nil, status: status.code, fault: nil, violations: [],
                                            reason: reason))
        connection.readIndex = connection.inboundCount
        perform(reply, for: request, on: connection, started: started)
    }

    private func beginStop() {
        stopping = true
        stopDeadline = POSIX.monotonicNanoseconds() + settings.shutdownGrace
        poller.remove(listener)
        for connection in connections.all {
            if case .holding = connection.phase {
                close(connection)
            } else if connection.isIdle {
                close(connection)
            }
        }
    }

    /// Changes what the poller reports for a connection, skipping the system call when nothing changes.
    func watch(_ connection: Connection, _ interest: Interest) {
        guard connection.interest != interest else { return }
        connection.interest = interest
        poller.modify(connection.fd, interest)
    }

    func remove(_ connection: Connection) {
        poller.remove(connection.fd)
        connections[connection.fd] = nil
        budget.release()
    }

    func close(_ connection: Connection) {
        guard connections[connection.fd] === connection else { return }
        remove(connection)
        POSIX.close(connection.fd)
    }
}
