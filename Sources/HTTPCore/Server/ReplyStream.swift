/// A response body produced after its head: any thread sends chunks, the connection's event loop
/// writes them. The queue is bounded: a consumer that reads slower than the producer sends is dropped
/// (its connection closed) once ``limit`` bytes wait, so a stalled reader never costs more than that.
package final class ReplyStream: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var bytes = 0
        var finished = false
        /// The consumer is gone, or fell too far behind: sends are refused.
        var dropped = false
        var waker: Waker?
    }

    /// Who to tell when a chunk arrives for a connection that was waiting for one.
    struct Waker: Sendable {
        let loop: EventLoop
        let fd: Int32
    }

    /// The most bytes that may wait unwritten before the consumer is dropped.
    package let limit: Int
    private let state = Locked(State())

    package init(limit: Int = 1 << 20) {
        self.limit = limit
    }

    /// Queues `bytes` as the next part of the body.
    /// - Returns: `false` when the consumer is gone (it disconnected or fell behind): stop sending.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return isOpen }
        let (accepted, waker) = state.withValue { state -> (Bool, Waker?) in
            guard !state.dropped, !state.finished else { return (false, nil) }
            guard state.bytes + bytes.count <= limit else {
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
        waker.map { $0.loop.streamReady(fd: $0.fd) }
        return accepted
    }

    /// Ends the body once the queued chunks are written.
    package func finish() {
        let waker = state.withValue { state -> Waker? in
            guard !state.finished, !state.dropped else { return nil }
            state.finished = true
            return state.waker
        }
        waker.map { $0.loop.streamReady(fd: $0.fd) }
    }

    /// Whether sends are still accepted.
    package var isOpen: Bool { state.withValue { !$0.dropped && !$0.finished } }

    // MARK: - The connection's side

    /// What the connection should do next.
    enum Pending {
        case chunks([[UInt8]])
        case finished
        case dropped
        case nothing
    }

    /// Takes what is queued, and remembers `waker` for the next send into the emptied queue. Once the
    /// stream is over (finished and drained, or dropped) it forgets any waker: a waker holds its loop,
    /// and a producer such as the journal may hold the stream long after.
    func take(waker: Waker?) -> Pending {
        state.withValue { state in
            if state.dropped {
                state.waker = nil
                return .dropped
            }
            state.waker = waker
            if !state.chunks.isEmpty {
                let chunks = state.chunks
                state.chunks = []
                state.bytes = 0
                return .chunks(chunks)
            }
            guard state.finished else { return .nothing }
            state.waker = nil
            return .finished
        }
    }

    /// Whether a waker is remembered (for tests: an ended stream must hold none).
    var holdsWaker: Bool { state.withValue { $0.waker != nil } }

    /// The connection is gone: refuse further sends.
    func cancel() {
        state.withValue { state in
            state.dropped = true
            state.chunks = []
            state.bytes = 0
            state.waker = nil
        }
    }
}
