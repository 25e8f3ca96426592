import HTTPCore

/// One request to the target and its response, blocking the calling thread (a pool thread, never an event
/// loop): resolve, connect, write, read, each bounded by the timeout. A connection that ends its response by its
/// framing is kept (``IdleConnections``) for the next request; a kept one the target closed meanwhile is
/// replaced by a fresh one, and an idempotent request that found it closed before any answer is sent again.
struct UpstreamClient: Sendable {
    /// Where to connect: the target, or the TLS bridge on loopback.
    let host: String
    let port: UInt16
    /// Seconds allowed to connect, and between any two reads of the response.
    let timeout: Double
    /// Connections kept between requests.
    let idle: IdleConnections

    /// - Parameter keptConnections: How many idle connections to keep (the relay threads' and the event loops' relays).
    init(host: String, port: UInt16, timeout: Double, keptConnections: Int = 8) {
        self.host = host
        self.port = port
        self.timeout = timeout
        idle = IdleConnections(capacity: keptConnections)
    }

    /// Methods a request may be sent again with (RFC 9110 §9.2.2), when a kept connection closed before answering.
    static let idempotent: Set<HTTPRequest.Method> = [.get, .head, .options, .put, .delete]

    /// Where a body goes as it arrives, once the head is read: each part in order; `false` stops the exchange (the
    /// client left).
    typealias BodySink = ([UInt8]) -> Bool

    /// Chooses, once a response's head is read and its body is still to come, whether the body streams on: given the
    /// head (without a body) and the length it announces (`nil`: chunked, or until the close), a sink, or `nil` to
    /// read the body whole.
    typealias Streaming = (UpstreamResponse, Int?) -> BodySink?

    /// - Parameter streaming: Decides whether a body streams on as it arrives (the response returned then has
    ///   ``UpstreamResponse/streamed`` set and no body); `nil` reads every body whole.
    func exchange(_ bytes: [UInt8], method: HTTPRequest.Method, streaming: Streaming? = nil)
        -> Result<UpstreamResponse, UpstreamFailure> {
        if let kept = idle.take() {
            let started = POSIX.monotonicNanoseconds()
            var outcome: (Result<UpstreamResponse, UpstreamFailure>, keep: Bool)?
            if send(bytes, on: kept) == nil {
                outcome = receive(on: kept, reader: UpstreamResponseReader(requestMethod: method), started: started,
                                  streaming: streaming)
            }
            switch outcome {
            case (.success(let response), let keep)?:
                if keep { idle.put(kept) } else { POSIX.close(kept) }
                return .success(response)
            case (.failure(let failure), _)? where !Self.isUnanswered(failure) || !Self.idempotent.contains(method):
                POSIX.close(kept)
                return .failure(failure)
            default:
                // The target had closed the kept connection: the request goes again, on a new one.
                POSIX.close(kept)
            }
        }
        return exchangeOnNewConnection(bytes, method: method, streaming: streaming)
    }

    /// Whether `failure` says the connection closed before any byte of an answer.
    private static func isUnanswered(_ failure: UpstreamFailure) -> Bool {
        if case .connectionReset = failure { return true }
        return false
    }

    private func exchangeOnNewConnection(_ bytes: [UInt8], method: HTTPRequest.Method, streaming: Streaming?)
        -> Result<UpstreamResponse, UpstreamFailure> {
        let fd: Int32
        switch connect() {
        case .success(let connected): fd = connected
        case .failure(let failure): return .failure(failure)
        }
        let started = POSIX.monotonicNanoseconds()
        if let failure = send(bytes, on: fd) {
            POSIX.close(fd)
            return .failure(failure)
        }
        let (result, keep) = receive(on: fd, reader: UpstreamResponseReader(requestMethod: method), started: started,
                                     streaming: streaming)
        if keep { idle.put(fd) } else { POSIX.close(fd) }
        return result
    }

    /// Sends a request whose body is passed on as it arrives: the head (`head`, framing the body as `body` announces),
    /// then each part as it comes (as a chunk when the length is unknown), then reads the response. On a new
    /// connection, as a body taken cannot be sent again, closed after the response. A backend that stops reading and
    /// answers first (a 413, a 401) is heard: its answer, not the failed write, is the outcome.
    /// - Parameter taken: Sees each part of the body as it goes (the recording's copy).
    func exchange(_ head: [UInt8], body: RequestBodyStream, method: HTTPRequest.Method, taken: ([UInt8]) -> Void,
                  streaming: Streaming?) -> Result<UpstreamResponse, UpstreamFailure> {
        let fd: Int32
        switch connect() {
        case .success(let connected): fd = connected
        case .failure(let failure):
            body.cancel()
            return .failure(failure)
        }
        var sent = sendWatching(head, on: fd)
        sending: while case .sent = sent {
            switch body.next() {
            case .bytes(let bytes):
                taken(bytes)
                sent = sendWatching(body.length == nil ? Self.chunk(bytes) : bytes, on: fd)
            case .end:
                if body.length == nil { sent = sendWatching(Array("0\r\n\r\n".utf8), on: fd) }
                break sending
            case .broken:
                // Reset, not closed: the target must not take what it got for a whole request.
                POSIX.abort(fd)
                return .failure(.clientLeft)
            }
        }
        let reader = UpstreamResponseReader(requestMethod: method)
        switch sent {
        case .sent:
            // Not kept: a target that answered early may still take the rest of the body for its next request, and the
            // whole body may have gone into the sockets' buffers before its answer came (a new connection per upload
            // costs little beside the body).
            let (result, _) = receive(on: fd, reader: reader, started: POSIX.monotonicNanoseconds(), streaming: streaming)
            POSIX.close(fd)
            return result
        case .answeredEarly, .failed(.connectionReset):
            // The target answered (or closed) before it read the whole body: its answer, if it gave one, is the
            // outcome, and the connection is reset, so that the part of the body still queued is not sent.
            body.cancel()
            let (result, _) = receive(on: fd, reader: reader, started: POSIX.monotonicNanoseconds(), streaming: streaming)
            POSIX.abort(fd)
            if case .failed(let failure) = sent, case .failure = result { return .failure(failure) }
            return result
        case .failed(let failure):
            body.cancel()
            POSIX.abort(fd)
            return .failure(failure)
        }
    }

    private enum Sent {
        case sent
        /// The target had something to say before it took all of the request.
        case answeredEarly
        case failed(UpstreamFailure)
    }

    /// Writes `bytes` as ``send(_:on:)`` does, but stops when the target, no longer reading, has something to say
    /// (RFC 9112 §9.3: a client sending a body watches for an answer meanwhile).
    private func sendWatching(_ bytes: [UInt8], on fd: Int32) -> Sent {
        var offset = 0
        var until = deadline()
        while offset < bytes.count {
            switch bytes[offset...].withUnsafeBytes({ POSIX.write(fd, $0, nil) }) {
            case .bytes(let count):
                offset += count
                until = deadline()
            case .wouldBlock:
                switch POSIX.waitWritableOrReadable(fd, deadline: until) {
                case .success(true): return .answeredEarly
                case .success(false): continue
                case .failure(let error): return .failed(Self.failure(error, timeout: timeout))
                }
            case .closed:
                return .failed(.connectionReset("the connection closed while the request was sent"))
            }
        }
        return .sent
    }

    /// `bytes` as one chunk of a chunked body (RFC 9112 §7.1).
    static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
    }

    /// A new connection to the target, within the timeout.
    private func connect() -> Result<Int32, UpstreamFailure> {
        let addresses: [SocketAddress]
        switch POSIX.resolve(host: host, port: port) {
        case .success(let found): addresses = found
        case .failure(let error): return .failure(Self.failure(error, timeout: timeout))
        }
        return POSIX.connect(to: addresses, deadline: deadline()).mapError { Self.failure($0, timeout: timeout) }
    }

    /// Finishes an exchange whose head the ``LoopRelay`` read, reading the rest of the body on this thread.
    func resume(_ handOff: LoopRelay.HandOff, streaming: Streaming?) -> Result<UpstreamResponse, UpstreamFailure> {
        let (result, keep) = receive(on: handOff.fd, reader: handOff.reader, started: handOff.started,
                                     headMs: handOff.headMs, streaming: streaming)
        if keep && handOff.mayKeep { idle.put(handOff.fd) } else { POSIX.close(handOff.fd) }
        return result
    }

    private func deadline() -> UInt64 {
        POSIX.monotonicNanoseconds() + UInt64(max(0.001, timeout) * 1_000_000_000)
    }

    private func send(_ bytes: [UInt8], on fd: Int32) -> UpstreamFailure? {
        var offset = 0
        var until = deadline()
        while offset < bytes.count {
            let result = bytes[offset...].withUnsafeBytes { POSIX.write(fd, $0, nil) }
            switch result {
            case .bytes(let count):
                offset += count
                until = deadline()
            case .wouldBlock:
                if let error = POSIX.wait(fd, forWriting: true, deadline: until) { return Self.failure(error, timeout: timeout) }
            case .closed:
                return .connectionReset("the connection closed while the request was sent")
            }
        }
        return nil
    }

    /// - Parameters:
    ///   - reader: What is read of the response so far: nothing, or its head (and maybe some of its body) when it
    ///     resumes an exchange the ``LoopRelay`` began.
    ///   - started: When the request's first byte was sent (monotonic), for ``UpstreamResponse/headMs``.
    ///   - headMs: How long the head took, when it is read already.
    /// - Returns: The response or why there is none, and whether the connection may carry another request.
    private func receive(on fd: Int32, reader: UpstreamResponseReader, started: UInt64, headMs known: Double? = nil,
                         streaming: Streaming?) -> (Result<UpstreamResponse, UpstreamFailure>, keep: Bool) {
        var reader = reader
        var headMs = known
        func timed(_ response: UpstreamResponse) -> UpstreamResponse {
            var response = response
            response.headMs = headMs ?? Double(POSIX.monotonicNanoseconds() - started) / 1_000_000
            return response
        }
        // Once chosen: the body goes here as it arrives, and the reader keeps none of it.
        var sink: BodySink?
        var streamed: UpstreamResponse? {
            var head = reader.headResponse.map(timed)
            head?.streamed = true
            return head
        }
        /// Once the head is read and the body is still to come: whether the caller has it stream on, and the outcome
        /// when what is read already ends it.
        func streamIfChosen() throws(UpstreamFailure) -> (Result<UpstreamResponse, UpstreamFailure>, keep: Bool)? {
            guard let streaming, let head = reader.headResponse,
                  let chosen = streaming(timed(head), reader.announcedBodyLength) else { return nil }
            sink = chosen
            let (bytes, done) = try reader.takeBody()
            guard bytes.isEmpty || chosen(bytes) else { return (.failure(.clientLeft), false) }
            if done, let head = streamed { return (.success(head), reader.keepsConnection) }
            return nil
        }
        if reader.hasHead {
            do {
                if let ended = try streamIfChosen() { return ended }
            } catch {
                return (.failure(error), false)
            }
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var until = deadline()
        while true {
            let result = chunk.withUnsafeMutableBytes { POSIX.read(fd, into: $0) }
            do {
                switch result {
                case .bytes(let count):
                    until = deadline()
                    if let sink {
                        _ = try reader.append(chunk[0..<count])
                        let (bytes, done) = try reader.takeBody()
                        guard bytes.isEmpty || sink(bytes) else { return (.failure(.clientLeft), false) }
                        if done, let head = streamed { return (.success(head), reader.keepsConnection) }
                        continue
                    }
                    let response = try reader.feed(chunk[0..<count])
                    if headMs == nil && reader.hasHead {
                        headMs = Double(POSIX.monotonicNanoseconds() - started) / 1_000_000
                        // The body is still to come: the caller may have it stream on, starting with what is read.
                        if response == nil, let ended = try streamIfChosen() { return ended }
                    }
                    if let response { return (.success(timed(response)), reader.keepsConnection) }
                case .wouldBlock:
                    if let error = POSIX.wait(fd, forWriting: false, deadline: until) {
                        return (.failure(Self.failure(error, timeout: timeout)), false)
                    }
                case .closed:
                    if sink != nil {
                        try reader.finishStreaming()
                        if let head = streamed { return (.success(head), false) }
                    }
                    return (.success(timed(try reader.finish())), false)
                }
            } catch {
                return (.failure(error), false)
            }
        }
    }

    private static func failure(_ error: POSIX.ClientError, timeout: Double) -> UpstreamFailure {
        switch error {
        case .nameResolution(let reason): .nameResolution(reason)
        case .refused: .connectionRefused
        case .timedOut: .timedOut(seconds: timeout)
        case .failed(let reason): .failed(reason)
        }
    }
}
