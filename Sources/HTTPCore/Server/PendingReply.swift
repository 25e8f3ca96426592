/// A reply that another thread produces later, such as an answer relayed from an upstream server. The
/// responder returns `.later(pending)` at once; whoever does the slow work calls ``complete(_:)`` once, from
/// any thread. Meanwhile the connection reads no further request (pipelined ones wait, in order) and its
/// event loop is free; the final reply is carried out on that loop, as if the responder had returned it.
///
/// A client that leaves, a server that stops or a wait past ``timeout`` cancels it: ``complete(_:)`` then
/// drops the reply and returns `false`, so a late answer costs nothing.
public final class PendingReply: Sendable {
    private struct State {
        var reply: Reply?
        var waker: ReplyStream.Waker?
        var cancelled = false
        /// Fields added before the reply came (CORS, rate-limit headers), for the response it brings.
        var fields: [(name: String, value: String)] = []
    }

    /// Nanoseconds the connection waits for the reply before it answers 504 through
    /// ``HTTPResponder/reject(_:reason:)`` itself: a safety net behind the producer's own timeout.
    public let timeout: UInt64
    private let state = Locked(State())

    public init(timeoutNanoseconds: UInt64) {
        timeout = timeoutNanoseconds
    }

    /// Hands over the final reply (its `delayMs` is not waited: wait before completing). Only the first call counts.
    /// - Returns: `false` when nobody waits for it any more: the client left, the server stopped or the wait
    ///   timed out.
    @discardableResult
    public func complete(_ reply: Reply) -> Bool {
        let (accepted, waker) = state.withValue { state -> (Bool, ReplyStream.Waker?) in
            guard !state.cancelled, state.reply == nil else { return (false, nil) }
            var reply = reply
            reply.addFields(state.fields)
            state.reply = reply
            return (true, state.waker.take())
        }
        waker.map { $0.loop.connectionReady(fd: $0.fd) }
        return accepted
    }

    /// Adds header fields to the response the reply brings, when it comes (``Reply/addFields(_:)``).
    func addFields(_ fields: [(name: String, value: String)]) {
        state.withValue { state in
            // The producer may have answered already (a local backend is quick): then its reply takes them.
            if state.reply != nil {
                state.reply?.addFields(fields)
            } else {
                state.fields += fields
            }
        }
    }

    /// Whether the reply is no longer wanted.
    public var isCancelled: Bool { state.withValue { $0.cancelled } }

    // MARK: - The connection's side

    /// The reply if it has arrived; else remembers `waker` for ``complete(_:)``.
    func take(waker: ReplyStream.Waker) -> Reply? {
        state.withValue { state in
            guard let reply = state.reply.take() else {
                state.waker = waker
                return nil
            }
            state.waker = nil
            state.cancelled = true
            return reply
        }
    }

    /// Nobody waits any more: a later reply is dropped.
    func cancel() {
        let dropped = state.withValue { state -> Reply? in
            state.cancelled = true
            state.waker = nil
            return state.reply.take()
        }
        if case .stream(_, let body)? = dropped?.action { body.cancel() }
        if case .upgrade(_, let channel)? = dropped?.action { channel.lost() }
    }
}
