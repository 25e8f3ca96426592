/// A response body produced after its head, in one of two ways, which may be combined:
///
/// - pushed: any thread ``send(_:)``s chunks, the connection's event loop writes them. The queue is
///   bounded: a consumer that reads slower than the producer sends is dropped (its connection closed)
///   once more than ``limit`` bytes would wait (an empty queue takes one part of any size), so a stalled reader
///   never costs more than that. A producer that would rather wait than drop its consumer uses
///   ``sendWaiting(_:)`` (a relayed body).
/// - pulled from a ``ReplyStreamSource``: the connection asks the source for the next bytes only when
///   its socket has taken everything before them, at most once per ``interval``. A producer that has
///   something new calls ``notify()``. Nothing waits in memory for a reader that stopped reading: the
///   source decides what it has missed once it reads again.
public final class ReplyStream: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var bytes = 0
        var finished = false
        /// The consumer is gone, or fell too far behind: sends are refused.
        var dropped = false
        /// The producer asked for a TCP reset once the queued chunks are written (``reset()``).
        var resetting = false
        /// A producer sleeps in ``sendWaiting(_:)`` until the queue has room.
        var producerWaits = false
        /// The source has something new since the connection last asked it.
        var notified = false
        /// A finished stream with a source asks it once more, for what it had not been asked for yet.
        var askedLast = false
        var waker: Waker?
    }

    /// Who to tell when a chunk (or a ``PendingReply``'s reply) arrives for a connection that was waiting for one.
    struct Waker: Sendable {
        let loop: EventLoop
        let fd: Int32
    }

    /// The most bytes that may wait unwritten before the consumer is dropped; for a source, the most it is
    /// asked for at once.
    public let limit: Int
    /// The least time between two pulls from ``source``, in nanoseconds: a busy producer's output is
    /// written in batches, with one system call per batch instead of one per event.
    public let interval: UInt64
    /// The body's length when it is known before it is written (a paced fixture): the head announces it
    /// with `Content-Length` and the body goes out as it is, not chunked. `nil`: chunked, or to the close.
    public let length: Int?
    private let source: (any ReplyStreamSource)?
    private let state = Locked(State())

    /// Wakes a producer that waits for room (``sendWaiting(_:)``).
    private let room = Condition()

    /// A pushed stream: at most `limit` bytes wait for the connection; `length` when the body's size is known (the head
    /// announces it, and the producer sends exactly that many bytes or resets the stream).
    public init(limit: Int = 1 << 20, length: Int? = nil, endsWhenStopping: Bool = true) {
        self.limit = limit
        interval = 0
        self.length = length
        source = nil
        self.endsWhenStopping = endsWhenStopping
    }

    /// A stream whose body `source` produces on demand, in parts of at most `limit` bytes, at most once
    /// per `interval` nanoseconds; `length` when the body's size is known up front.
    public init(source: any ReplyStreamSource, limit: Int, interval: UInt64, length: Int? = nil) {
        self.limit = limit
        self.interval = interval
        self.length = length
        self.source = source
        endsWhenStopping = true
    }

    /// Whether a stopping server ends the stream where it is (an event stream, which has no end of its own), or
    /// lets it run until the grace ends (a relayed body, which a premature end would silently truncate; cut at the
    /// grace, it shows as incomplete).
    public let endsWhenStopping: Bool

    /// Queues `bytes` as the next part of the body.
    /// - Returns: `false` when the consumer is gone (it disconnected or fell behind): stop sending.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return isOpen }
        let (accepted, waker) = state.withValue { state -> (Bool, Waker?) in
            guard !state.dropped, !state.finished else { return (false, nil) }
            // An empty queue takes one part of any size: only a consumer that lets parts pile up is dropped.
            guard state.bytes == 0 || state.bytes + bytes.count <= limit else {
                state.dropped = true
                state.chunks = []
                state.bytes = 0
                return (false, state.waker.take())
            }
            let wasEmpty = state.chunks.isEmpty
            state.chunks.append(bytes)
            state.bytes += bytes.count
            return (true, wasEmpty ? state.waker : nil)
        }
        waker.map { $0.loop.connectionReady(fd: $0.fd) }
        return accepted
    }

    /// Queues `bytes` as the next part of the body, waiting (blocking the calling thread, never an event loop's)
    /// while the queue holds `limit` bytes or more: a producer as fast as its source (a relayed download) goes at the
    /// client's pace, and the memory it holds stays bounded.
    /// - Returns: `false` when the consumer is gone: stop sending.
    public func sendWaiting(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return isOpen }
        while true {
            let (outcome, waker) = state.withValue { state -> (Bool?, Waker?) in
                guard !state.dropped, !state.finished else { return (false, nil) }
                guard state.bytes == 0 || state.bytes + bytes.count <= limit else { return (nil, nil) }
                let wasEmpty = state.chunks.isEmpty
                state.chunks.append(bytes)
                state.bytes += bytes.count
                return (true, wasEmpty ? state.waker : nil)
            }
            waker.map { $0.loop.connectionReady(fd: $0.fd) }
            if let outcome { return outcome }
            // Full: sleep until the connection takes what waits (or leaves). Checked again under `room`'s lock, which
            // the connection takes to wake it after changing the state, so no wake-up is lost in between.
            room.withLock {
                while state.withValue({ state in
                    let full = !state.dropped && !state.finished && state.bytes > 0 && state.bytes + bytes.count > limit
                    state.producerWaits = full
                    return full
                }) {
                    room.wait()
                }
            }
        }
    }

    /// Wakes a producer waiting in ``sendWaiting(_:)`` once the state changed, if one waits.
    private func wakeProducer(_ waits: Bool) {
        guard waits else { return }
        room.withLock { room.broadcast() }
    }

    /// Tells a stream with a source that the source has something new: the connection asks for it as soon
    /// as its socket and ``interval`` allow.
    /// - Returns: `false` when the consumer is gone: forget the stream.
    @discardableResult
    public func notify() -> Bool {
        let (open, waker) = state.withValue { state -> (Bool, Waker?) in
            guard !state.dropped, !state.finished else { return (false, nil) }
            state.notified = true
            return (true, state.waker.take())
        }
        waker.map { $0.loop.connectionReady(fd: $0.fd) }
        return open
    }

    /// Ends the body once the queued chunks are written.
    public func finish() {
        let (waker, waits) = state.withValue { state -> (Waker?, Bool) in
            guard !state.finished, !state.dropped else { return (nil, false) }
            state.finished = true
            return (state.waker, state.producerWaits)
        }
        waker.map { $0.loop.connectionReady(fd: $0.fd) }
        wakeProducer(waits)
    }

    /// Ends the connection with a TCP reset once the queued chunks are written: a stream that breaks, for fault
    /// injection.
    public func reset() {
        let (waker, waits) = state.withValue { state -> (Waker?, Bool) in
            guard !state.finished, !state.dropped else { return (nil, false) }
            state.finished = true
            state.resetting = true
            return (state.waker, state.producerWaits)
        }
        waker.map { $0.loop.connectionReady(fd: $0.fd) }
        wakeProducer(waits)
    }

    /// Whether sends are still accepted.
    public var isOpen: Bool { state.withValue { !$0.dropped && !$0.finished } }

    /// Whether the consumer is gone, or was dropped for falling behind.
    var isDropped: Bool { state.withValue { $0.dropped } }

    // MARK: - The connection's side

    /// What the connection should do next.
    enum Pending {
        case chunks([[UInt8]])
        case finished
        /// Finished by ``reset()``: abort the connection.
        case reset
        case dropped
        case nothing
    }

    /// Takes what is queued, else what the source has, and remembers `waker` for the next send or notice
    /// when there is nothing. Once the stream is over (finished and drained, or dropped) it forgets any
    /// waker: a waker holds its loop, and a producer such as the journal may hold the stream long after.
    func take(waker: Waker?) -> Pending {
        var rest = false
        var producerWaits = false
        defer { wakeProducer(producerWaits) }
        while true {
            let pending = state.withValue { state -> Pending? in
                if state.dropped {
                    state.waker = nil
                    return .dropped
                }
                if !state.chunks.isEmpty {
                    let chunks = state.chunks
                    state.chunks = []
                    state.bytes = 0
                    state.waker = waker
                    producerWaits = state.producerWaits
                    return .chunks(chunks)
                }
                if state.finished && (source == nil || state.askedLast) {
                    state.waker = nil
                    return state.resetting ? .reset : .finished
                }
                if state.finished {
                    state.askedLast = true
                    // Stopping: a body with an end goes out whole, not cut after one more part.
                    rest = source?.hasEnd == true
                }
                guard source != nil else {
                    state.waker = waker
                    return .nothing
                }
                // Asked below, outside the lock (the source takes its own); a notice meanwhile is seen next turn.
                state.notified = false
                return nil
            }
            if let pending { return pending }
            let produced = source?.next(maxBytes: rest ? Int.max : limit) ?? []
            // A source with an end (a paced body) ends the stream with its last part.
            if source?.isExhausted == true {
                state.withValue { state in
                    state.finished = true
                    state.askedLast = true
                }
            }
            if !produced.isEmpty { return .chunks([produced]) }
            let waiting = state.withValue { state -> Bool in
                guard !state.notified, !state.dropped, !state.finished else { return false }
                state.waker = waker
                return true
            }
            if waiting { return .nothing }
        }
    }

    /// The whole body of a stream whose source has an end (a paced body), pulled at once, with the number of
    /// parts a connection would have written one ``interval`` apart; `nil` for any other stream. For callers
    /// without a socket (an in-process dispatcher), which wait the pace out themselves.
    public func readAll() -> (bytes: [UInt8], parts: Int)? {
        guard let source else { return nil }
        var bytes: [UInt8] = []
        var parts = 0
        while !source.isExhausted {
            let part = source.next(maxBytes: limit)
            guard !part.isEmpty else { return nil }
            bytes += part
            parts += 1
        }
        return (bytes, parts)
    }

    /// Forgets the waker: the connection is awake and pulls itself (``Connection/pullStream()``) once it has done
    /// what may send, so that sends made meanwhile on its own thread cost no wake-up.
    func forgetWaker() {
        state.withValue { $0.waker = nil }
    }

    /// Whether a waker is remembered (for tests: an ended stream must hold none).
    var holdsWaker: Bool { state.withValue { $0.waker != nil } }

    /// Whether the body comes from a source, paced by ``interval``.
    var isPulled: Bool { source != nil }

    /// Whether the source is a body with an end (``ReplyStreamSource/hasEnd``).
    var hasEnd: Bool { source?.hasEnd ?? false }

    /// The connection is gone, or nobody will read the stream: refuse further sends (a producer waiting for room
    /// wakes and stops).
    public func cancel() {
        let waits = state.withValue { state -> Bool in
            state.dropped = true
            state.chunks = []
            state.bytes = 0
            state.waker = nil
            return state.producerWaits
        }
        wakeProducer(waits)
    }
}

/// What a pulled ``ReplyStream`` reads its body from, on the connection's event loop.
public protocol ReplyStreamSource: AnyObject, Sendable {
    /// The next part of the body, at most about `maxBytes`, or nothing when there is nothing new; then the
    /// producer calls ``ReplyStream/notify()`` when there is.
    func next(maxBytes: Int) -> [UInt8]

    /// Whether the source has given its last part: the stream then ends. A source that only pauses (the
    /// journal) never is.
    var isExhausted: Bool { get }

    /// Whether the source is a body with an end (a paced body): its parts are pulled one ``ReplyStream/interval``
    /// after the other rather than on a shared grid, and when the server stops, the rest goes out at once.
    var hasEnd: Bool { get }
}

extension ReplyStreamSource {
    public var isExhausted: Bool { false }
    public var hasEnd: Bool { false }
}

/// A body known in full, handed out in `pieces` parts (cut at `i × size / pieces`), one per pull: with the
/// stream's interval, the pace of a slow link (bandwidth) or of a body that arrives in pieces (dribble).
public final class PacedBody: ReplyStreamSource {
    private let bytes: [UInt8]
    /// At least 1, at most the body's size (a part holds a byte at least).
    public let pieces: Int
    private let given = Locked(0)

    public init(_ bytes: [UInt8], pieces: Int) {
        self.bytes = bytes
        self.pieces = max(1, min(pieces, bytes.count))
    }

    /// The next part; `Int.max` asks for everything left.
    public func next(maxBytes: Int) -> [UInt8] {
        given.withValue { given in
            guard given < pieces else { return [] }
            let start = bytes.count * given / pieces
            given = maxBytes == Int.max ? pieces : given + 1
            return Array(bytes[start..<(bytes.count * given / pieces)])
        }
    }

    public var isExhausted: Bool { given.withValue { $0 >= pieces } }
    public var hasEnd: Bool { true }
}
