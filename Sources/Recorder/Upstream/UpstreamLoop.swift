import HTTPCore

/// Exchanges with the target on kept connections, all driven by one thread of the proxy's own from one readiness
/// queue, none of them blocking it: under load a wake-up writes or reads many exchanges at once, where a thread per
/// exchange would be woken once for each (and the server's event loop with it). What this loop does not do goes back to
/// the caller, which does it the blocking way on a pool thread (``UpstreamClient``): an exchange with no kept connection
/// (connecting, resolving, a fresh start after the target closed a kept one), and a body that streams on at the
/// client's pace once its head is read (``Outcome/handOff(_:)``).
final class UpstreamLoop: @unchecked Sendable {
    // @unchecked: `exchanges` and `queue` are used only on the loop's thread; `submitted` is locked; the wake pipe
    // is a descriptor any thread may write to.

    /// One request to send on a kept connection.
    struct Job: Sendable {
        let bytes: [UInt8]
        let method: HTTPRequest.Method
        /// Asked before the request goes out: `false` once its client has left.
        let isWanted: @Sendable () -> Bool
        /// Given the head of a response whose body is still to come and the length it announces (`nil`: chunked, or
        /// until the close): whether the body streams on (handed off) rather than being read whole here.
        let streams: @Sendable (Int?) -> Bool
        /// Called once, on the loop's thread, with what came of it (never, when the job is no longer wanted as it
        /// starts). It must be quick and never block, as every exchange of the loop waits for it.
        let finish: @Sendable (Outcome) -> Void
    }

    /// What came of a job.
    enum Outcome: Sendable {
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

    /// An exchange whose head this loop read, for the caller to finish (``UpstreamClient/resume(_:streaming:)``).
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

    /// One exchange in flight on the loop's thread.
    private struct Exchange {
        let job: Job
        var reader: UpstreamResponseReader
        /// Bytes of the request written so far.
        var written = 0
        let started: UInt64
        var headMs: Double?
        /// Whether the queue reports the connection writable too (a request too large for one write).
        var watchesWrites = false
        /// Whether any byte of the response came (a kept connection that closes before one is sent again).
        var answered = false
        /// When it fails for want of a next byte (monotonic).
        var deadline: UInt64
    }

    private let idle: IdleConnections
    private let timeout: Double
    private let backend: IOBackend
    private let submitted = Locked<(jobs: [Job], stopped: Bool, started: Bool)>(([], false, false))
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var exchanges: [Int32: Exchange] = [:]
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// - Parameters:
    ///   - idle: The connections it takes (and keeps again), shared with the blocking client.
    ///   - timeout: Seconds allowed between two reads of a response.
    ///   - backend: The readiness API; `nil` chooses as the server does (`MOCK_SERVER_IO`, else the platform's best).
    init(idle: IdleConnections, timeout: Double, backend: IOBackend? = nil) throws(SocketError) {
        self.idle = idle
        self.timeout = timeout
        if let backend {
            self.backend = backend
        } else {
            self.backend = try IOBackend.fromEnvironment(POSIX.environment(IOBackend.environmentVariable))
        }
        (wakeRead, wakeWrite) = try POSIX.makeWakePipe()
    }

    deinit {
        POSIX.close(wakeRead)
        POSIX.close(wakeWrite)
    }

    /// Queues `job`, starting the loop's thread on first use.
    /// - Returns: `false` when the loop stopped or could not start: the job was not taken.
    func submit(_ job: Job) -> Bool {
        let (accepted, start, first) = submitted.withValue { state -> (Bool, Bool, Bool) in
            guard !state.stopped else { return (false, false, false) }
            state.jobs.append(job)
            defer { state.started = true }
            return (true, !state.started, state.jobs.count == 1)
        }
        guard accepted else { return false }
        if start {
            do {
                let thread = try POSIX.startThread(stackSize: 512 * 1024) { [self] in run() }
                thread.detach()
            } catch {
                refuseFromNowOn()
                return true
            }
        }
        if first { POSIX.wake(wakeWrite) }
        return true
    }

    /// Stops the loop: what is in flight fails, and later jobs are refused.
    func stop() {
        submitted.withValue { $0.stopped = true }
        POSIX.wake(wakeWrite)
    }

    /// Without a thread or a queue, the loop takes no job: those waiting go the blocking way.
    private func refuseFromNowOn() {
        submitted.withValue { $0.stopped = true }
        for job in takeJobs() { job.finish(.notSent) }
    }

    private func takeJobs() -> [Job] {
        submitted.withValue { state in
            defer { state.jobs = [] }
            return state.jobs
        }
    }

    // MARK: - The loop's thread

    private func run() {
        let queue: any ReadinessQueue
        do {
            queue = try backend.makeQueue()
            try queue.add(wakeRead, .read)
        } catch {
            return refuseFromNowOn()
        }
        var events: [ReadinessEvent] = []
        while true {
            do {
                try queue.wait(timeoutMilliseconds: waitTimeout(now: POSIX.monotonicNanoseconds()), into: &events)
            } catch {
                POSIX.writeLine("mock-server: the proxy's upstream loop stopped: \(error)", toStandardError: true)
                submitted.withValue { $0.stopped = true }
                break
            }
            for event in events {
                if event.fd == wakeRead {
                    POSIX.drain(wakeRead)
                    if submitted.withValue({ $0.stopped }) { return end(queue) }
                    for job in takeJobs() { start(job, queue) }
                } else if exchanges[event.fd] != nil {
                    if event.writable || event.failed { write(event.fd, queue) }
                    if event.readable || event.failed { read(event.fd, queue) }
                }
            }
            expire(now: POSIX.monotonicNanoseconds(), queue)
        }
        end(queue)
    }

    /// Fails what is in flight and what waits; the thread ends.
    private func end(_ queue: any ReadinessQueue) {
        for fd in Array(exchanges.keys) { fail(fd, .failed("the proxy stopped"), queue) }
        for job in takeJobs() { job.finish(.failure(.failed("the proxy stopped"))) }
    }

    private func start(_ job: Job, _ queue: any ReadinessQueue) {
        guard job.isWanted() else { return }
        guard let fd = idle.take() else { return job.finish(.notSent) }
        do {
            // Watched for the answer only: nearly every request goes out in one write.
            try queue.add(fd, .read)
        } catch {
            POSIX.close(fd)
            return job.finish(.notSent)
        }
        let now = POSIX.monotonicNanoseconds()
        exchanges[fd] = Exchange(job: job, reader: UpstreamResponseReader(requestMethod: job.method), started: now,
                                 deadline: deadline(after: now))
        write(fd, queue)
    }

    /// Writes what is left of the request; once it is all out, waits only for the answer.
    private func write(_ fd: Int32, _ queue: any ReadinessQueue) {
        guard var exchange = exchanges[fd], exchange.written < exchange.job.bytes.count else { return }
        while exchange.written < exchange.job.bytes.count {
            let result = exchange.job.bytes[exchange.written...].withUnsafeBytes { POSIX.write(fd, $0, nil) }
            switch result {
            case .bytes(let count):
                exchange.written += count
                exchange.deadline = deadline(after: POSIX.monotonicNanoseconds())
            case .wouldBlock:
                if !exchange.watchesWrites { queue.modify(fd, .readWrite) }
                exchange.watchesWrites = true
                exchanges[fd] = exchange
                return
            case .closed:
                exchanges[fd] = exchange
                return closed(fd, queue)
            }
        }
        if exchange.watchesWrites { queue.modify(fd, .read) }
        exchange.watchesWrites = false
        exchanges[fd] = exchange
    }

    private func read(_ fd: Int32, _ queue: any ReadinessQueue) {
        while exchanges[fd] != nil {
            let result = readBuffer.withUnsafeMutableBytes { POSIX.read(fd, into: $0) }
            guard case .bytes(let count) = result else {
                if result == .closed { closed(fd, queue) }
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
                return fail(fd, error, queue)
            }
            if exchange.headMs == nil && exchange.reader.hasHead {
                exchange.headMs = Self.milliseconds(since: exchange.started)
            }
            // A target that answered before the whole request was written would read the rest as the next request.
            let mayKeep = exchange.written == exchange.job.bytes.count
            if let response {
                queue.remove(fd)
                if exchange.reader.keepsConnection && mayKeep { idle.put(fd) } else { POSIX.close(fd) }
                return exchange.job.finish(.response(timed(response, exchange)))
            }
            if let headMs = exchange.headMs, exchange.job.streams(exchange.reader.announcedBodyLength) {
                queue.remove(fd)
                return exchange.job.finish(.handOff(HandOff(fd: fd, reader: exchange.reader, started: exchange.started,
                                                            headMs: headMs, mayKeep: mayKeep)))
            }
            exchanges[fd] = exchange
        }
    }

    /// The target closed the connection (or it failed): the end of a body read until the close, a kept connection
    /// gone stale (sent again elsewhere if it may be), or a response cut short.
    private func closed(_ fd: Int32, _ queue: any ReadinessQueue) {
        guard var exchange = exchanges.removeValue(forKey: fd) else { return }
        queue.remove(fd)
        POSIX.close(fd)
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

    private func fail(_ fd: Int32, _ failure: UpstreamFailure, _ queue: any ReadinessQueue) {
        guard let exchange = exchanges.removeValue(forKey: fd) else { return }
        queue.remove(fd)
        POSIX.close(fd)
        exchange.job.finish(.failure(failure))
    }

    /// Fails the exchanges that waited past the timeout for their next byte.
    private func expire(now: UInt64, _ queue: any ReadinessQueue) {
        for (fd, exchange) in exchanges where exchange.deadline <= now {
            fail(fd, .timedOut(seconds: timeout), queue)
        }
    }

    /// Until the soonest deadline of an exchange; -1 with none.
    private func waitTimeout(now: UInt64) -> Int32 {
        guard let soonest = exchanges.values.lazy.map(\.deadline).min() else { return -1 }
        guard soonest > now else { return 0 }
        return Int32(min((soonest - now + 999_999) / 1_000_000, UInt64(Int32.max)))
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
