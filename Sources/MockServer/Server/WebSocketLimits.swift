/// The limits every WebSocket of a server has.
public struct WebSocketLimits: Sendable, Equatable {
    /// The largest message a client may send (fragments joined); larger closes the socket with 1009.
    public var maxMessageBytes = 1 << 20
    /// A socket with no message either way for this long is closed with 1001.
    public var idleSeconds = 300

    /// Limits with the given values (the defaults: 1 MiB, 300 s).
    public init(maxMessageBytes: Int = 1 << 20, idleSeconds: Int = 300) {
        self.maxMessageBytes = maxMessageBytes
        self.idleSeconds = idleSeconds
    }
}
