/// A request's body passed on as it arrives (``HTTPResponder/respond(toHead:body:peerIsLoopback:)``): the connection
/// waits for the reply as for any pending one (Connection+Pending.swift) and meanwhile reads the body into
/// ``Connection/forwarding``, stopping while its consumer is behind. Once the body has all come, what follows it
/// (a pipelined request) is kept for after the reply, as while any reply is awaited.
extension Connection {
    /// Starts passing on the body the parser offered, answered by `reply` (from the responder, given the head alone).
    func forward(_ body: RequestBodyStream, of request: HTTPRequest, headLength: Int, answeredBy reply: Reply) {
        let started = requestStarted ?? POSIX.monotonicNanoseconds()
        inbound.readIndex += headLength
        requestStarted = nil
        guard case .later = reply.action else {
            // Answered at once: the body is not read, so nothing can follow it.
            body.fail("the request was answered from its head")
            var closing = reply
            closing.closeAfter = true
            inbound.consumeAll()
            return perform(closing, for: request, started: started)
        }
        parser.streamOfferedBody()
        if request.version == .http11 && request.facts.expectsContinue && !continueSent {
            // The client waits for this before it sends the body (`Expect: 100-continue`).
            outbound.enqueue(HTTPResponseEncoder.continueHead)
        }
        continueSent = false
        body.setWaker(.init(loop: loop, fd: fd))
        forwarding = body
        var waiting = reply
        waiting.delayMs = 0
        perform(waiting, for: request, started: started)
        forwardBody()
    }

    /// Moves the body's bytes read so far to ``forwarding``, and reads more while it has room: until the body ends,
    /// the consumer is behind (its ``RequestBodyStream`` wakes the connection when it has taken them), the socket
    /// has no more for now, or ``readsPerTurn`` reads are done.
    func forwardBody() {
        guard case .waiting = phase, let body = forwarding else { return }
        guard body.hasRoom else { return watch(outbound.isEmpty ? .none : .write) }
        var reads = 0
        while true {
            if inbound.hasUnconsumed {
                typealias Found = (bytes: [UInt8], consumed: Int, done: Bool)
                let step = inbound.withUnconsumed { buffer -> Result<Found, HTTPParseError> in
                    do throws(HTTPParseError) {
                        return .success(try parser.streamedBody(in: buffer))
                    } catch {
                        return .failure(error)
                    }
                }
                switch step {
                case .failure(let error):
                    return abandonPending(error.status, error.reason)
                case .success(let (bytes, consumed, done)):
                    inbound.readIndex += consumed
                    let room = body.append(bytes)
                    inbound.resetIfDrained()
                    if done {
                        forwarding = nil
                        body.finish()
                        return watch(outbound.isEmpty ? .read : .readWrite)
                    }
                    guard room else { return watch(outbound.isEmpty ? .none : .write) }
                }
            }
            // What was read is passed on: the loop's other connections get their turn; the poller reports this again.
            guard reads < Self.readsPerTurn else { return watch(outbound.isEmpty ? .read : .readWrite) }
            reads += 1
            switch inbound.read(from: fd).result {
            case .bytes:
                // Progress: the waits for the body and for the reply count from here.
                lastActivity = POSIX.monotonicNanoseconds()
                if let waiting = pending { pending?.until = lastActivity + waiting.reply.timeout }
            case .wouldBlock:
                return watch(outbound.isEmpty ? .read : .readWrite)
            case .closed:
                return close()
            }
        }
    }

    /// At most so many reads of a body per call of ``forwardBody()``.
    static let readsPerTurn = 16
}
