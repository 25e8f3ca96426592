/// Carrying out a ``Reply``: writing responses and streams, playing transport faults, closing politely.
extension Connection {
    func perform(_ reply: Reply, for request: HTTPRequest, started: UInt64?) {
        let keepAlive = request.keepAlive && !reply.closeAfter && !loop.stopping
        let omitBody = request.method == "HEAD"
        var sent = 0
        switch reply.action {
        case .respond(let response):
            let (head, body) = HTTPResponseEncoder.message(response, keepAlive: keepAlive, omitBody: omitBody,
                                                           date: loop.date.current())
            outbound.enqueue(head)
            outbound.enqueue(body)
            sent = head.count + body.count
            if !keepAlive { closeAfterFlush = true }
        case .stream(let response, let body):
            sent = startStream(response, body, request: request, keepAlive: keepAlive, omitBody: omitBody)
        case .transport(let action):
            sent = startTransport(action, omitBody: omitBody)
        }
        loop.responder.didSend(reply, for: request, bytes: sent, started: started)
        if isOpen, case .active = phase { write() }
    }

    /// Starts a transport fault; returns the bytes it sends.
    private func startTransport(_ action: TransportAction, omitBody: Bool) -> Int {
        switch action {
        case .reset:
            loop.forget(self)
            POSIX.abort(fd)
            return 0
        case .close:
            closeAfterFlush = true
            return 0
        case .sendThenClose(let bytes):
            outbound.enqueue(bytes)
            closeAfterFlush = true
            return bytes.count
        case .truncate(let response, let announced):
            let head = HTTPResponseEncoder.head(response, framing: .length(announced), keepAlive: true,
                                                date: loop.date.current())
            let part = omitBody ? [] : response.body
            outbound.enqueue(head)
            outbound.enqueue(part)
            closeAfterFlush = true
            return head.count + part.count
        case .hold(let milliseconds):
            let until = POSIX.monotonicNanoseconds() + UInt64(max(0, milliseconds)) * 1_000_000
            phase = .holding(until: until)
            watch(.read)
            schedule(at: until)
            return 0
        }
    }

    /// Sends a stream's head; its body follows as the stream produces it. HTTP/1.1 clients get chunked
    /// transfer coding and may reuse the connection afterwards; HTTP/1.0 ones get a close-delimited body.
    private func startStream(_ response: HTTPResponse, _ body: ReplyStream, request: HTTPRequest,
                             keepAlive: Bool, omitBody: Bool) -> Int {
        let chunked = request.version == .http11
        let head = HTTPResponseEncoder.head(response, framing: chunked ? .chunked : .untilClose,
                                            keepAlive: keepAlive && chunked, date: loop.date.current())
        outbound.enqueue(head)
        if omitBody || response.status.forbidsBody {
            body.cancel()
            if !keepAlive || !chunked { closeAfterFlush = true }
            return head.count
        }
        if !keepAlive || !chunked { closeAfterFlush = true }
        stream = (body, chunked)
        phase = .streaming
        write()
        if isOpen { pullStream() }
        return head.count
    }

    /// Writes what the stream has produced; with nothing produced, waits to be woken by the next send.
    func pullStream() {
        guard case .streaming = phase, let (body, chunked) = stream, outbound.isEmpty else { return }
        switch body.take(waker: .init(loop: loop, fd: fd)) {
        case .nothing:
            watch(.read)
        case .chunks(let chunks):
            for chunk in chunks {
                outbound.enqueue(chunked ? HTTPResponseEncoder.chunkHead(chunk.count) : [])
                outbound.enqueue(chunk)
                if chunked { outbound.enqueue(HTTPResponseEncoder.crlf) }
            }
            write()
        case .finished:
            stream = nil
            phase = .active
            if loop.stopping { closeAfterFlush = true }
            if chunked { outbound.enqueue(HTTPResponseEncoder.lastChunk) }
            write()
            if isOpen, case .active = phase, outbound.isEmpty, inbound.hasUnconsumed { process() }
        case .dropped:
            close()
        }
    }

    func write() {
        guard outbound.flush(to: fd) else { return close() }
        afterFlush()
    }

    func afterFlush() {
        if !outbound.isEmpty {
            return watch(.readWrite)
        }
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

    var isOpen: Bool { loop.connections[fd] === self }

    func close() {
        guard isOpen else { return }
        stream?.body.cancel()
        stream = nil
        loop.forget(self)
        POSIX.close(fd)
    }
}
