/// One client connection and its state machine, owned by one event loop's thread: reading and
/// parsing requests, `100-continue`, writing replies and streams, keep-alive, pauses, transport
/// faults and timeouts. The loop only hands it readiness events, timer firings and stream wake-ups.
final class Connection {
    enum Phase {
        /// Reading requests and writing responses.
        case active
        /// Waiting until the deadline before carrying out ``Connection/delayed``.
        case delayed(until: UInt64)
        /// Holding the connection open without answering, until the deadline.
        case holding(until: UInt64)
        /// Writing a ``ReplyStream``'s body as it comes.
        case streaming
        /// Waiting for another thread to complete ``Connection/pending``; no further request is read.
        case waiting
        /// Response sent and FIN queued; waiting for the peer's FIN (or the deadline) before closing, so
        /// a response is never cut short by a reset caused by unread pipelined bytes.
        case lingering(until: UInt64)
    }

    let fd: Int32
    /// Whether the peer is on this machine's loopback interface.
    let fromLoopback: Bool
    /// The loop that owns the connection. A strong constant: read from the connection, it is lent without reference
    /// counting. (As `unowned(unsafe)`, each use that called into the loop retained and released it, four times a
    /// request.) The cycle it makes with the loop's table ends when the loop forgets the connection, as it does
    /// every one before `run()` returns.
    let loop: EventLoop
    var phase = Phase.active
    /// Whether the loop still has it: false once ``EventLoop/forget(_:)`` took it out (a forgotten connection is
    /// never taken back; its descriptor goes to a new one). A flag, where looking itself up in the loop's table
    /// cost a retain and a release each time, three times a request.
    private(set) var isOpen = true
    /// The reply a delayed connection carries out when its deadline comes.
    var delayed: (reply: Reply, request: HTTPRequest, started: UInt64)?
    var stream: (body: ReplyStream, chunked: Bool)?
    /// After a WebSocket upgrade: the socket's channel, and the reader of the client's frames.
    var webSocket: WebSocketChannel?
    var frameReader: WebSocketFrameReader?
    /// While waiting: the request's body, passed on as it arrives to whoever completes the reply
    /// (Connection+Upload.swift), until it has all been read.
    var forwarding: RequestBodyStream?
    /// The reply a waiting connection carries out once another thread completes it, and when it gives up.
    var pending: (reply: PendingReply, request: HTTPRequest, started: UInt64?, until: UInt64)?
    /// For a stream with a source: when it may next be asked, and whether the timer is set for then.
    var nextPull: UInt64 = 0
    var pullScheduled = false
    /// The readiness the poller reports for this socket; changed only when it differs.
    var interest = Interest.read
    // The parser and the buffers are touched on every request, only by the owning loop's thread, and
    // no access to one spans another access to it: the dynamic exclusivity check would only cost time.
    @exclusivity(unchecked) var parser: HTTPRequestParser
    /// The storage of the last request, which the next one is parsed into (see ``HTTPRequestParser/parse(_:into:)``),
    /// taken by ``process()`` while it runs (a call from within it, rare, gets new storage, kept only if it ends
    /// last). Kept here rather than handed out of the parser in an enum's payload and given back: moving it into
    /// and out of the payload cost more, on every request.
    @exclusivity(unchecked) private var spare = SpareValue(HTTPRequest())
    @exclusivity(unchecked) var inbound = InboundBuffer()
    @exclusivity(unchecked) var outbound = OutboundQueue()
    var closeAfterFlush = false
    /// While a pipelined request is answered (more bytes wait after it), its response is queued, not written:
    /// the responses of requests that arrived together go out in one write (``process()`` flushes them).
    var holdingWrites = false
    /// A response was queued and not written because of ``holdingWrites``.
    var heldWrites = false
    /// The storage of the last response head, reused for the next one (see ``perform(_:for:started:)``).
    var headStorage: [UInt8] = []
    var continueSent = false
    /// When the current request's first byte arrived (for the header and body timeouts), or `nil`.
    var requestStarted: UInt64?
    /// The last read, or the last write that made progress: drives the idle and write timeouts.
    var lastActivity: UInt64
    /// Identifies the latest timer armed for this connection; older ones are ignored when they fire.
    var token: UInt64 = 0

    init(fd: Int32, loop: EventLoop, now: UInt64, fromLoopback: Bool) {
        self.fd = fd
        self.loop = loop
        self.fromLoopback = fromLoopback
        self.parser = HTTPRequestParser(limits: loop.settings.limits)
        parser.offersBodies = loop.responder.passesBodiesOn
        self.lastActivity = now
        arm(now: now)
    }

    /// Between requests with nothing pending: safe to close at shutdown.
    var isIdle: Bool {
        guard case .active = phase else { return false }
        return !inbound.hasUnconsumed && outbound.isEmpty && !parser.isReadingBody
    }

    /// Marks it forgotten by its loop (only ``EventLoop/forget(_:)`` calls it).
    func forgotten() { isOpen = false }

    // MARK: - Events

    func handle(_ event: ReadinessEvent) {
        if event.writable || (event.failed && !outbound.isEmpty) {
            guard outbound.flush(to: fd) else { return close() }
            // Write progress counts as activity, so a slow reader of a large body is not cut off.
            lastActivity = POSIX.monotonicNanoseconds()
            afterFlush()
            guard isOpen else { return }
            if case .streaming = phase, outbound.isEmpty { pullStream() }
            // Output drained: resume pipelined requests that waited for room.
            if case .active = phase, outbound.isEmpty, inbound.hasUnconsumed { process() }
        }
        guard isOpen, event.readable || event.failed else { return }
        switch phase {
        case .active:
            readRequests()
        case .streaming where webSocket != nil:
            readFrames()
        case .delayed, .holding, .streaming, .waiting:
            // An error or full hang-up: nobody is left to answer.
            if event.failed { return close() }
            if forwarding != nil { return forwardBody() }
            readWhilePaused()
        case .lingering:
            discardUntilClosed()
        }
    }

    /// The server is stopping: close what waits for nothing, end streams, let the rest finish.
    func beginStop() {
        switch phase {
        case .holding: close()
        case .streaming where webSocket != nil: webSocket?.close(code: WebSocketCloseCode.goingAway, reason: "the server is stopping")
        case .streaming where stream?.body.endsWhenStopping == false: break
        case .streaming: stream?.body.finish()
        // Promptly, whatever the upstream's timeout: the client is told, not left hanging until the grace ends.
        case .waiting: abandonPending(.serviceUnavailable, "the server is stopping")
        case .active where isIdle: close()
        default: break
        }
    }

    // MARK: - Reading

    private func readRequests() {
        while true {
            let (result, filled) = inbound.read(from: fd)
            switch result {
            case .bytes:
                let now = loop.wokeAt
                if requestStarted == nil { requestStarted = now }
                lastActivity = now
                process()
                guard filled, isOpen, case .active = phase else { return }
            case .wouldBlock:
                return
            case .closed:
                // The peer half-closed: finish writing what is queued, then close.
                guard !outbound.isEmpty else { return close() }
                closeAfterFlush = true
                watch(.write)
                return
            }
        }
    }

    /// A paused or streaming connection stays readable, because kqueue and Darwin's poll(2) report no
    /// hang-up for a descriptor nobody reads: a client that gives up is noticed at once on every
    /// backend. Bytes that arrive meanwhile (a pipelined request) are kept for afterwards; past
    /// ``pausedInputLimit`` the connection stops reading, and only epoll still reports a hang-up.
    private func readWhilePaused() {
        switch inbound.readKeeping(from: fd, upTo: Self.pausedInputLimit) {
        case .closed: close()
        case .full: watch(outbound.isEmpty ? .none : .write)
        case .drained: break
        }
    }

    static let pausedInputLimit = 64 * 1024

    private func discardUntilClosed() {
        if InboundBuffer.discard(from: fd) { close() }
    }

    /// Parses and answers every complete request in the buffer, in order, until one must wait.
    func process() {
        // Taken out while in use: a stored property passed to a call is copied first (a retain and a release of
        // each of its arrays and strings), as the call might change it through `self`. (A reply that ends at once
        // can process the next request from within this call: that one then gets storage of its own.)
        var request = spare.take() ?? HTTPRequest()
        processRequests(into: &request)
        spare.put(consume request)
        if heldWrites {
            heldWrites = false
            if isOpen { write() }
        }
    }

    private func processRequests(into request: inout HTTPRequest) {
        while case .active = phase, !closeAfterFlush, outbound.bytes <= loop.settings.maxQueuedOutput {
            let step = inbound.withUnconsumed { parser.parse($0, into: &request) }
            switch consume step {
            case .needMore:
                if parser.awaitsContinue && !continueSent {
                    continueSent = true
                    outbound.enqueue(HTTPResponseEncoder.continueHead)
                    write()
                }
                if !inbound.hasUnconsumed { requestStarted = nil }
                inbound.resetIfDrained()
                return
            case .failure(let error):
                return reject(error.status, error.reason, started: requestStarted)
            case .bodyOffered(let headLength, let length):
                let body = RequestBodyStream(length: length)
                if let reply = loop.responder.respond(toHead: request, body: body, peerIsLoopback: fromLoopback) {
                    return forward(body, of: request, headLength: headLength, answeredBy: reply)
                }
                // Read whole, as any other body.
                do {
                    try parser.bufferOfferedBody(of: &request)
                } catch {
                    return reject(error.status, error.reason, started: requestStarted)
                }
            case .request(let consumed):
                let started = requestStarted ?? POSIX.monotonicNanoseconds()
                inbound.readIndex += consumed
                continueSent = false
                requestStarted = inbound.hasUnconsumed ? POSIX.monotonicNanoseconds() : nil
                let reply = loop.responder.respond(to: request, peerIsLoopback: fromLoopback)
                if reply.delayMs > 0 {
                    let until = POSIX.monotonicNanoseconds() + UInt64(reply.delayMs) * 1_000_000
                    phase = .delayed(until: until)
                    delayed = (reply, request, started)
                    watch(.read)
                    return schedule(at: until)
                }
                holdingWrites = inbound.hasUnconsumed
                perform(reply, for: request, started: started)
                holdingWrites = false
                guard isOpen else { return }
            }
        }
        inbound.resetIfDrained()
    }

    /// Answers bytes that are not a readable request, and closes.
    func reject(_ status: HTTPStatus, _ reason: String, started: UInt64?) {
        var reply = loop.responder.reject(status, reason: reason)
        reply.closeAfter = true
        inbound.consumeAll()
        perform(reply, for: .unreadable, started: started)
    }
}
