/// What the layer above does with an accepted WebSocket. Called on the connection's event-loop thread: an
/// implementation never blocks (a reply that waits goes on a task of its own).
public protocol WebSocketHandler: AnyObject, Sendable {
    /// The 101 response is queued: messages sent now follow it.
    func opened(_ channel: WebSocketChannel)
    /// A whole message arrived (fragments joined; text checked as UTF-8).
    func received(_ message: WebSocketMessage, on channel: WebSocketChannel)
    /// The socket is over, once, however it ended.
    func closed(_ channel: WebSocketChannel, ending: WebSocketChannel.Ending)
}

/// One accepted WebSocket: the server's side of it, which any thread may send messages into. Frames go out through a
/// pushed ``ReplyStream`` (bounded: a client that stops reading is dropped once ``outputLimit`` bytes wait); the
/// connection reads the client's frames (``WebSocketFrameReader``), answers pings and the close handshake itself,
/// and hands messages to the ``WebSocketHandler``.
public final class WebSocketChannel: Sendable {
    /// How a socket ended.
    public enum Ending: Sendable, Equatable {
        /// The client sent a close frame (its code, `nil` when it gave none); the server answered it.
        case closedByClient(code: UInt16?, reason: String)
        /// The server closed it (``close(code:reason:)``): a script's close, idleness, shutdown.
        case closedByServer(code: UInt16, reason: String)
        /// The client broke the protocol; the server closed with `code` (1002, 1007, 1009).
        case violation(code: UInt16, reason: String)
        /// The connection went without a close handshake.
        case lost
    }

    /// The largest message the client may send (fragments joined); larger closes with 1009.
    public let maxMessageBytes: Int
    /// A socket with no message either way for this long (nanoseconds) is closed with 1001.
    public let idleTimeout: UInt64
    public let handler: any WebSocketHandler
    /// Frames queued for the client, as the connection writes them.
    let output: ReplyStream

    private struct State {
        /// A close frame was queued: no frame may follow (RFC 6455 §5.5.1).
        var closeSent = false
        var ended = false
    }

    private let state = Locked(State())

    /// - Parameter outputLimit: The most bytes that may wait for a client that reads slower than it is sent to.
    public init(handler: any WebSocketHandler, maxMessageBytes: Int = 1 << 20, idleTimeout: UInt64 = 300_000_000_000,
                outputLimit: Int = 4 << 20) {
        self.handler = handler
        self.maxMessageBytes = max(1, maxMessageBytes)
        // At most a year: "never" given as UInt64.max must not overflow the deadline it is added to.
        self.idleTimeout = min(idleTimeout, 365 * 86_400 * 1_000_000_000)
        output = ReplyStream(limit: outputLimit)
    }

    /// Sends `message` to the client.
    /// - Returns: `false` when the socket is closing or gone.
    @discardableResult
    public func send(_ message: WebSocketMessage) -> Bool {
        enqueue(WebSocketFrame.encode(message))
    }

    /// Queues `frame` unless a close frame went first: checked and queued under the channel's lock, so that no frame
    /// can follow the close (§5.5.1) whichever thread sends it. (The lock order is the channel's, then the stream's.)
    private func enqueue(_ frame: [UInt8]) -> Bool {
        state.withValue { state in
            guard !state.closeSent else { return false }
            return output.send(frame)
        }
    }

    /// Starts the close handshake: sends a close frame with `code` and `reason` (at most 123 bytes of it), then ends
    /// the connection. Does nothing once a close was sent.
    public func close(code: UInt16 = WebSocketCloseCode.normal, reason: String = "") {
        end(sending: WebSocketFrame.close(code: code, reason: reason), as: .closedByServer(code: code, reason: reason))
    }

    /// Whether messages can still be sent.
    public var isOpen: Bool { !state.withValue { $0.closeSent } && output.isOpen }

    // MARK: - The connection's side

    /// Answers a ping with a pong carrying the same bytes (§5.5.3).
    func pong(_ payload: [UInt8]) {
        _ = enqueue(WebSocketFrame.encode(.pong, payload))
    }

    /// The client sent a close frame: answer with its code (§5.5.1) and end.
    func closedByClient(code: UInt16?, reason: String) {
        end(sending: WebSocketFrame.close(code: code ?? WebSocketCloseCode.normal, reason: ""),
            as: .closedByClient(code: code, reason: reason))
    }

    /// The client broke the protocol: close with `code` and end.
    func violated(code: UInt16, reason: String) {
        end(sending: WebSocketFrame.close(code: code, reason: reason), as: .violation(code: code, reason: reason))
    }

    /// The connection is gone (or, for a caller without a socket, never was).
    package func lost() {
        output.cancel()
        report(.lost)
    }

    private func end(sending frame: [UInt8], as ending: Ending) {
        let first = state.withValue { state -> Bool in
            guard !state.closeSent else { return false }
            state.closeSent = true
            output.send(frame)
            output.finish()
            return true
        }
        guard first else { return }
        report(ending)
    }

    /// Tells the handler how the socket ended, the first time only.
    private func report(_ ending: Ending) {
        let first = state.withValue { state -> Bool in
            defer { state.ended = true }
            return !state.ended
        }
        if first { handler.closed(self, ending: ending) }
    }
}
