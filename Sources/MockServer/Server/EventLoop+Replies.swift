import ContractModel

/// Carrying out a ``Reply`` on a connection: writing responses, playing faults, closing politely.
extension EventLoop {
    func perform(_ reply: Reply, for request: HTTPRequest, on connection: Connection, started: UInt64?) {
        var sent = 0
        switch reply.action {
        case .respond(let response):
            let keepAlive = request.keepAlive && !reply.closeAfter && !stopping
            let omitBody = request.method == "HEAD" || response.status.code == 204 || response.status.code == 304
            let head = HTTPResponseEncoder.head(response, contentLength: response.body.count, keepAlive: keepAlive,
                                                date: date.current())
            connection.enqueue(head)
            if !omitBody { connection.enqueue(response.body) }
            sent = head.count + (omitBody ? 0 : response.body.count)
            if !keepAlive { connection.closeAfterFlush = true }
        case .fault(let fault, let body, let head):
            sent = startFault(fault, body: body, omitBody: request.method == "HEAD", head: head,
                              holdMs: reply.holdMs, on: connection)
        }
        if log.format != .off {
            log.write(method: request.method, target: request.target, status: reply.status,
                      fault: reply.faultName, scenario: reply.scenario, bytes: sent, started: started,
                      reason: reply.reason)
        }
        if connections[connection.fd] === connection, case .active = connection.phase { write(connection) }
    }

    /// Starts a fault; returns the bytes it sends.
    /// - Parameter omitBody: A HEAD request: the head announces what GET would, and no body byte follows.
    private func startFault(_ fault: Fault, body: [UInt8], omitBody: Bool, head: [UInt8], holdMs: Int,
                            on connection: Connection) -> Int {
        switch fault {
        case .connectionReset:
            remove(connection)
            POSIX.abort(connection.fd)
            return 0
        case .emptyResponse:
            connection.closeAfterFlush = true
            return 0
        case .malformedResponse:
            let garbage = Array("HELLO GARBAGE \u{1}\u{2}\r\nthis is not HTTP\r\n\r\n".utf8)
            connection.enqueue(garbage)
            connection.closeAfterFlush = true
            return garbage.count
        case .truncatedBody:
            let announced = max(body.count, 64) * 2
            let response = HTTPResponse(status: .ok, head: head, body: [])
            let head = HTTPResponseEncoder.head(response, contentLength: announced, keepAlive: true,
                                                date: date.current())
            let part = omitBody ? [] : Array(body.prefix(body.count / 2))
            connection.enqueue(head)
            connection.enqueue(part)
            connection.closeAfterFlush = true
            return head.count + part.count
        case .noResponse:
            connection.phase = .holding
            watch(connection, .read)
            schedule(connection, afterMilliseconds: holdMs)
            return 0
        }
    }

    func write(_ connection: Connection) {
        guard connection.flush() else { return close(connection) }
        afterFlush(connection)
    }

    func afterFlush(_ connection: Connection) {
        if !connection.outbound.isEmpty {
            watch(connection, .readWrite)
            return
        }
        if connection.closeAfterFlush {
            if case .lingering = connection.phase { return }
            POSIX.shutdownWrite(connection.fd)
            connection.phase = .lingering(deadline: POSIX.monotonicNanoseconds() + 2_000_000_000)
            watch(connection, .read)
            return
        }
        watch(connection, .read)
    }

    func discardUntilClosed(_ connection: Connection) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = scratch.withUnsafeMutableBytes { POSIX.read(connection.fd, into: $0) }
            switch result {
            case .bytes: continue
            case .wouldBlock: return
            case .closed: return close(connection)
            }
        }
    }
}
