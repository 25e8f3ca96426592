/// A request's body passed on as it arrives: the connection that reads it appends each part, one consumer on another
/// thread (the proxy, writing it to the backend) takes them in order, blocking while none waits. At most about
/// ``limit`` bytes wait between the two: past it the connection stops reading its client until the consumer has taken
/// them, so an upload goes at the pace of the slower side and the memory it holds stays bounded.
///
/// The connection ends the stream on every path out of its wait
/// (``HTTPResponder/respond(toHead:body:peerIsLoopback:)``): the body's end (``Part/end``), or a client that left, a
/// malformed body, a timeout or a stopping server (``Part/broken(_:)``); so a consumer never waits for a connection
/// that is gone.
public final class RequestBodyStream: @unchecked Sendable {
    // @unchecked: `state` is only touched under `condition`'s lock.

    /// What ``next()`` takes.
    public enum Part: Equatable, Sendable {
        case bytes([UInt8])
        /// The whole body has been taken.
        case end
        /// The body will not be whole: why.
        case broken(String)
    }

    private struct State {
        var parts: [[UInt8]] = []
        /// ``parts`` from this index on are still to be taken.
        var first = 0
        var bytes = 0
        var finished = false
        var broken: String?
        /// The consumer is gone: what arrives is dropped.
        var cancelled = false
        /// The connection stopped reading because the queue was full, and waits for ``waker``.
        var producerWaits = false
        var waker: ReplyStream.Waker?
    }

    /// The length the request announced; `nil` when chunked.
    public let length: Int?
    /// How many bytes may wait before the connection stops reading.
    public let limit: Int
    private let condition = Condition()
    private var state = State()

    public init(length: Int?, limit: Int = 256 * 1024) {
        self.length = length
        self.limit = limit
    }

    // MARK: - The consumer's side

    /// The next part of the body, waiting for it if none has arrived.
    public func next() -> Part {
        let (part, waker) = condition.withLock { () -> (Part, ReplyStream.Waker?) in
            while state.first == state.parts.count && !state.finished && state.broken == nil && !state.cancelled {
                condition.wait()
            }
            if let broken = state.broken { return (.broken(broken), nil) }
            if state.cancelled { return (.broken("the body's consumer gave up"), nil) }
            guard state.first < state.parts.count else { return (.end, nil) }
            let part = state.parts[state.first]
            state.parts[state.first] = []
            state.first += 1
            state.bytes -= part.count
            if state.first == state.parts.count {
                state.parts.removeAll(keepingCapacity: true)
                state.first = 0
            }
            // The connection stopped reading at the limit: room again, it reads on.
            guard state.producerWaits, state.bytes < limit else { return (.bytes(part), nil) }
            state.producerWaits = false
            return (.bytes(part), state.waker)
        }
        waker.map { $0.loop.connectionReady(fd: $0.fd) }
        return part
    }

    /// The consumer stops taking parts (the backend failed, or answered early): what arrives is dropped.
    public func cancel() {
        let waker = condition.withLock { () -> ReplyStream.Waker? in
            state.cancelled = true
            state.parts.removeAll()
            state.first = 0
            state.bytes = 0
            // A connection stopped at the limit reads on (and drops what it reads) until the reply comes.
            guard state.producerWaits else { return nil }
            state.producerWaits = false
            return state.waker
        }
        waker.map { $0.loop.connectionReady(fd: $0.fd) }
    }

    // MARK: - The connection's side

    /// Wakes the connection on its loop when it may read on.
    func setWaker(_ waker: ReplyStream.Waker) {
        condition.withLock { state.waker = waker }
    }

    /// Queues the next part of the body.
    /// - Returns: Whether the connection may read on; `false` once ``limit`` bytes wait, until the waker tells it.
    func append(_ bytes: [UInt8]) -> Bool {
        condition.withLock {
            guard !state.cancelled, state.broken == nil, !state.finished else { return true }
            if !bytes.isEmpty {
                state.parts.append(bytes)
                state.bytes += bytes.count
                condition.signal()
            }
            state.producerWaits = state.bytes >= limit
            return !state.producerWaits
        }
    }

    /// The body ended whole.
    func finish() {
        condition.withLock {
            state.finished = true
            condition.signal()
        }
    }

    /// The body will not be whole; the consumer learns `reason` at its next ``next()``. No-op once finished.
    func fail(_ reason: String) {
        condition.withLock {
            guard !state.finished, state.broken == nil else { return }
            state.broken = reason
            state.waker = nil
            condition.signal()
        }
    }

    /// Whether the connection may read on: not stopped at the limit, or woken since.
    var hasRoom: Bool { condition.withLock { !state.producerWaits } }
}
