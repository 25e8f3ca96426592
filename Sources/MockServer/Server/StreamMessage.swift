/// One message of an open stream as the journal keeps it (``JournalEntry/message``): which way it went and what it
/// was. Its bytes are the entry's body; its endpoint, scenario, session and target are those of the request that
/// opened the stream.
public struct StreamMessage: Sendable, Codable, Equatable {
    /// Which way a message went.
    public enum Direction: String, Sendable, Codable {
        /// From the client (a WebSocket message).
        case received
        /// To the client (a WebSocket message, a pushed server-sent event).
        case sent
    }

    /// What a message was.
    public enum Kind: String, Sendable, Codable {
        /// A WebSocket text message.
        case text
        /// A WebSocket binary message.
        case binary
        /// A server-sent event, as the stream carries it.
        case event
        /// A WebSocket's end: the entry's reason says how (its close code, or a lost connection).
        case close
    }

    /// Which way it went.
    public let direction: Direction
    /// What it was.
    public let kind: Kind

    /// A message that went `direction`, of `kind`.
    public init(direction: Direction, kind: Kind) {
        self.direction = direction
        self.kind = kind
    }
}
