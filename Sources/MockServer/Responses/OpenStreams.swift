import HTTPCore

/// The streams open now, by endpoint and session: server-sent event streams and WebSockets, so that a test
/// (`POST /__mock/streams/{id}/send`, ``MockServer/send(eventData:event:id:to:session:)``,
/// ``MockServer/send(_:to:session:)``) or the dashboard can push into one app session's stream. A stream leaves
/// the table once its client has left or it ended.
final class OpenStreams: Sendable {
    /// What is open: an event stream, or a WebSocket with the socket's script (which journals what is pushed).
    enum Stream: Sendable {
        case events(ReplyStream, StreamJournal)
        case webSocket(ScriptedSocket, WebSocketChannel)

        var isOpen: Bool {
            switch self {
            case .events(let stream, _): stream.isOpen
            case .webSocket(_, let channel): channel.isOpen
            }
        }

        /// `events` or `websocket`, as the listing says.
        var kind: String {
            switch self {
            case .events: "events"
            case .webSocket: "websocket"
            }
        }
    }

    struct Entry: Sendable {
        let number: Int
        let endpoint: String
        let session: String
        let stream: Stream
        let opened: (seconds: Int, milliseconds: Int)
    }

    /// What `GET /__mock/streams` lists of one stream.
    struct Listing: Encodable {
        let number: Int
        let endpoint: String
        let session: String
        let kind: String
        let opened: String
    }

    private struct State {
        var entries: [Entry] = []
        var next = 1
    }

    private let state = Locked(State())

    /// Adds an open stream.
    func add(_ stream: Stream, endpoint: String, session: String) {
        state.withValue { state in
            state.entries.removeAll { !$0.stream.isOpen }
            state.entries.append(Entry(number: state.next, endpoint: endpoint, session: session, stream: stream,
                                       opened: POSIX.wallClock()))
            state.next += 1
        }
    }

    /// The streams still open, oldest first.
    func listing() -> [Listing] {
        open(endpoint: nil, session: nil).map {
            Listing(number: $0.number, endpoint: $0.endpoint, session: $0.session, kind: $0.stream.kind,
                    opened: HTTPDate.iso8601(seconds: $0.opened.seconds, milliseconds: $0.opened.milliseconds))
        }
    }

    /// Sends an encoded server-sent event into every open event stream of `endpoint`, or only those of `session`.
    /// - Returns: How many streams took it.
    func send(event bytes: [UInt8], endpoint: String, session: String?) -> Int {
        open(endpoint: endpoint, session: session).reduce(0) { count, entry in
            guard case .events(let stream, let journal) = entry.stream, stream.send(bytes) else { return count }
            journal.record(.sent, .event, bytes: (bytes, false), size: bytes.count)
            return count + 1
        }
    }

    /// Sends `message` into every open WebSocket of `endpoint`, or only those of `session`; each journals it.
    /// - Returns: How many sockets took it.
    func send(_ message: WebSocketMessage, endpoint: String, session: String?) -> Int {
        open(endpoint: endpoint, session: session).reduce(0) { count, entry in
            guard case .webSocket(let script, let channel) = entry.stream else { return count }
            return count + (script.push(message, on: channel) ? 1 : 0)
        }
    }

    /// The open streams, of `endpoint` and `session` when given; the table forgets those that ended.
    private func open(endpoint: String?, session: String?) -> [Entry] {
        state.withValue { state in
            state.entries.removeAll { !$0.stream.isOpen }
            return state.entries.filter {
                (endpoint == nil || $0.endpoint == endpoint) && (session == nil || $0.session == session)
            }
        }
    }
}
