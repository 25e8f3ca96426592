import HTTPCore

/// The proxy's exchanges with the target on kept connections, carried out by the event loop that took the request,
/// on its own thread and without blocking it (a ``LoopGuest``, one per loop): the request is written and the response
/// read as the sockets become ready, among the loop's other work, so a relayed request costs no thread switch and no
/// wake-up of its own. What this does not do goes back to the caller, which does it the blocking way on a pool thread
/// (``UpstreamClient``): an exchange with no kept connection (connecting, resolving, a fresh start after the target
/// closed a kept one), and a body that streams on at the client's pace once its head is read (``Outcome/handOff(_:)``).
///
/// Connections stay watched between requests (``kept``): a kept one the target closes is seen and closed at once.
final class LoopRelay: LoopGuest {
    /// One request to send on a kept connection.
    struct Job {
        let bytes: [UInt8]
        let method: HTTPRequest.Method
        /// Given the head of a response whose body is still to come and the length it announces (`nil`: chunked, or
        /// until the close): whether the body streams on (handed off) rather than being read whole here.
        let streams: (Int?) -> Bool
        /// Called once, on the loop's thread, with what came of it. It must be quick and never block: the loop's
        /// every connection waits for it.
        let finish: (Outcome) -> Void
    }

    /// What came of a job.
    enum Outcome {
        /// The whole response; the connection is kept again or closed.
        case response(UpstreamResponse)
        case failure(UpstreamFailure)
        /// No kept connection to send it on, or the kept one closed before any byte of an answer to a request that may
        /// be sent again: the caller sends it on a new connection. Never given for a request that is not idempotent and
        /// may have reached the target.
        case notSent
        /// The head is read and the body streams on: the caller goes on reading it on the connection, blocking.
        case handOff(HandOff)
    }

    /// An exchange whose head this relay read, for the caller to finish (``UpstreamClient/resume(_:streaming:)``).
    struct HandOff: Sendable {
        let fd: Int32
        let reader: UpstreamResponseReader
        /// When the request's first byte was sent (monotonic), and how long the head took.
        let started: UInt64
        let headMs: Double
        /// Whether the connection may carry another request once the body is read: not when the target answered
        /// before the whole request was written (the rest would be read as the next request).
        let mayKeep: Bool
    }

    /// One exchange in flight.
    private struct Exchange {
        let job: Job
        var reader: UpstreamResponseReader
        /// Bytes of the request written so far.
        var written = 0
        /// Whether the loop reports the connection writable too (a request too large for one write).
        var watchesWrites = false
        let started: UInt64
        var headMs: Double?
        /// Whether any byte of the response came (a kept connection that closes before one is sent again).
        var answered = false
        /// When it fails for want of a next byte (monotonic).
        var deadline: UInt64
    }

    /// The connections shared with the blocking client: taken when this relay has none of its own, and given back
    /// past ``keptLimit``.
    private let shared: IdleConnections
    private let timeout: Double
    private var exchanges: [Int32: Exchange] = [:]
    /// Connections that answered their last request, watched for the target closing them, newest last.
    private var kept: [(fd: Int32, since: UInt64)] = []
    private let keptLimit: Int
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// - Parameters:
    ///   - shared: The connections the blocking client keeps.
    ///   - timeout: Seconds allowed between two reads of a response.
    ///   - keptLimit: The most connections this relay keeps watched between requests.
    init(shared: IdleConnections, timeout: Double, keptLimit: Int) {
        self.shared = shared
        self.timeout = timeout
        self.keptLimit = keptLimit
    }

    /// Sends `job` on a kept connection, or gives it back (``Outcome/notSent``) when there is none.
    func start(_ job: Job, on loop: EventLoop) {
        guard let fd = takeConnection(loop) else { return job.finish(.notSent) }
        let now = POSIX.monotonicNanoseconds()
        let exchange = Exchange(job: job, reader: UpstreamResponseReader(requestMethod: job.method), started: now,
                                deadline: deadline(after: now))
        exchanges[fd] = exchange
        loop.callGuests(by: exchange.deadline)
        write(fd, loop)
    }

    /// A kept connection, watched for reading: this relay's newest, else one of the blocking client's.
    private func takeConnection(_ loop: EventLoop) -> Int32? {
        let now = POSIX.monotonicNanoseconds()
        while let connection = kept.popLast() {
            // One the target closed before the loop's wait returned is gone already: the loop hands its guests their
            // descriptors' events before its connections' (no system call here, on the proxy's busiest path). One kept
            // since, this turn, may hold a close the wait did not see (an answer, then the close): that one is asked.
            let keptThisTurn = connection.since >= loop.wokeAt
            if now &- connection.since <= IdleConnections.maximumIdleNanoseconds
                && !(keptThisTurn && POSIX.isReadable(connection.fd)) {
                return connection.fd
            }
            forget(connection.fd, loop)
        }
        guard let fd = shared.take() else { return nil }
        do {
            try loop.watch(fd, .read, for: self)
        } catch {
            POSIX.close(fd)
            return nil
        }
        return fd
    }

    /// Keeps `fd`, still watched, for the next request; past the limit it goes to the blocking client's.
    private func keep(_ fd: Int32, _ loop: EventLoop) {
        guard kept.count < keptLimit else {
            loop.unwatch(fd)
            return shared.put(fd)
        }
        kept.append((fd, POSIX.monotonicNanoseconds()))
    }

    private func forget(_ fd: Int32, _ loop: EventLoop) {
        loop.unwatch(fd)
        POSIX.close(fd)
    }

    // MARK: - The loop's calls

    func handle(_ event: ReadinessEvent, on loop: EventLoop) {
        guard exchanges[event.fd] != nil else {
            // A kept connection is readable only when the target closed it (or sent what nobody asked for).
            if let index = kept.firstIndex(where: { $0.fd == event.fd }) {
                kept.remove(at: index)
                forget(event.fd, loop)
            }
            return
        }
        if event.writable || event.failed { write(event.fd, loop) }
        if event.readable || event.failed { read(event.fd, loop) }
    }

    func tick(now: UInt64, on loop: EventLoop) -> UInt64? {
        var soonest = UInt64.max
        for (fd, exchange) in exchanges {
            if exchange.deadline <= now {
                fail(fd, .timedOut(seconds: timeout), loop)
            } else {
                soonest = min(soonest, exchange.deadline)
            }
        }
        // Idle too long: the target may close it any moment (nginx after 75 s, Node.js after 5 s).
        while let oldest = kept.first, now &- oldest.since > IdleConnections.maximumIdleNanoseconds {
            kept.removeFirst()
            forget(oldest.fd, loop)
        }
        if let oldest = kept.first { soonest = min(soonest, oldest.since + IdleConnections.maximumIdleNanoseconds + 1) }
        return soonest == .max ? nil : soonest
    }

    func loopEnded(_ loop: EventLoop) {
        for fd in Array(exchanges.keys) { fail(fd, .failed("the server stopped"), loop) }
        for connection in kept { forget(connection.fd, loop) }
        kept = []
    }

    // MARK: - Exchanges

    /// Writes what is left of the request; once it is all out, waits only for the answer.
    private func write(_ fd: Int32, _ loop: EventLoop) {
        guard var exchange = exchanges[fd], exchange.written < exchange.job.bytes.count else { return }
        while exchange.written < exchange.job.bytes.count {
            let result = exchange.job.bytes[exchange.written...].withUnsafeBytes { POSIX.write(fd, $0, nil) }
            switch result {
            case .bytes(let count):
                exchange.written += count
                exchange.deadline = deadline(after: POSIX.monotonicNanoseconds())
            case .wouldBlock:
                if !exchange.watchesWrites { loop.rewatch(fd, .readWrite) }
                exchange.watchesWrites = true
                exchanges[fd] = exchange
                return
            case .closed:
                // An answer may have come before the target stopped reading (a 413 or a 401, then the close): read it
                // before deciding that there is none.
                exchanges[fd] = exchange
                read(fd, loop)
                if exchanges[fd] != nil { closed(fd, loop) }
                return
            }
        }
        if exchange.watchesWrites { loop.rewatch(fd, .read) }
        exchange.watchesWrites = false
        exchanges[fd] = exchange
    }

    private func read(_ fd: Int32, _ loop: EventLoop) {
        while exchanges[fd] != nil {
            let result = readBuffer.withUnsafeMutableBytes { POSIX.read(fd, into: $0) }
            guard case .bytes(let count) = result else {
                if result == .closed { closed(fd, loop) }
                return
            }
            // Taken out while it reads, so that its reader is the buffer's only owner and appends in place.
            guard var exchange = exchanges.removeValue(forKey: fd) else { return }
            exchange.answered = true
            exchange.deadline = deadline(after: POSIX.monotonicNanoseconds())
            let response: UpstreamResponse?
            do throws(UpstreamFailure) {
                response = try exchange.reader.feed(readBuffer[0..<count])
            } catch {
                exchanges[fd] = exchange
                return fail(fd, error, loop)
            }
            if exchange.headMs == nil && exchange.reader.hasHead {
                exchange.headMs = Self.milliseconds(since: exchange.started)
            }
            // A target that answered before the whole request was written would read the rest as the next request.
            let mayKeep = exchange.written == exchange.job.bytes.count
            if let response {
                if exchange.watchesWrites { loop.rewatch(fd, .read) }
                if exchange.reader.keepsConnection && mayKeep { keep(fd, loop) } else { forget(fd, loop) }
                return exchange.job.finish(.response(timed(response, exchange)))
            }
            if let headMs = exchange.headMs, exchange.job.streams(exchange.reader.announcedBodyLength) {
                loop.unwatch(fd)
                return exchange.job.finish(.handOff(HandOff(fd: fd, reader: exchange.reader, started: exchange.started,
                                                            headMs: headMs, mayKeep: mayKeep)))
            }
            exchanges[fd] = exchange
        }
    }

    /// The target closed the connection (or it failed): the end of a body read until the close, a kept connection
    /// gone stale (sent again elsewhere if it may be), or a response cut short.
    private func closed(_ fd: Int32, _ loop: EventLoop) {
        guard var exchange = exchanges.removeValue(forKey: fd) else { return }
        forget(fd, loop)
        if !exchange.answered {
            // RFC 9110 §9.2.2: only an idempotent request may go again; another may have reached the target.
            if UpstreamClient.idempotent.contains(exchange.job.method) { return exchange.job.finish(.notSent) }
            return exchange.job.finish(.failure(.connectionReset("the connection closed before any answer")))
        }
        do throws(UpstreamFailure) {
            let response = try exchange.reader.finish()
            exchange.job.finish(.response(timed(response, exchange)))
        } catch {
            exchange.job.finish(.failure(error))
        }
    }

    private func fail(_ fd: Int32, _ failure: UpstreamFailure, _ loop: EventLoop) {
        guard let exchange = exchanges.removeValue(forKey: fd) else { return }
        forget(fd, loop)
        exchange.job.finish(.failure(failure))
    }

    private func deadline(after now: UInt64) -> UInt64 {
        now + UInt64(max(0.001, timeout) * 1_000_000_000)
    }

    private func timed(_ response: UpstreamResponse, _ exchange: Exchange) -> UpstreamResponse {
        var response = response
        response.headMs = exchange.headMs ?? Self.milliseconds(since: exchange.started)
        return response
    }

    private static func milliseconds(since start: UInt64) -> Double {
        Double(POSIX.monotonicNanoseconds() - start) / 1_000_000
    }
}
