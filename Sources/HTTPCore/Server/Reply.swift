/// What the server does with one request: answer it, stream an answer, or misbehave at the transport
/// level, possibly after a delay. The layer above (``HTTPResponder``) decides; the core carries it out.
public struct Reply: Sendable {
    public enum Action: Sendable {
        /// A finished response, written at once.
        case respond(HTTPResponse)
        /// A response head, then a body the server keeps writing as `stream` produces it (chunked, or
        /// delimited by the close for HTTP/1.0).
        case stream(HTTPResponse, ReplyStream)
        /// Misbehaviour below HTTP, for fault injection.
        case transport(TransportAction)
        /// A reply another thread produces later (``PendingReply``); the connection waits for it without
        /// blocking its event loop.
        case later(PendingReply)
        /// A `101 Switching Protocols` response, after which the connection carries the WebSocket `channel`
        /// (RFC 6455) until either side closes it.
        case upgrade(HTTPResponse, WebSocketChannel)
    }

    // No default values: the initializer sets each field once (with defaults, it stored and then replaced
    // them, for every reply).
    public var action: Action
    /// Milliseconds to wait before carrying out the action.
    public var delayMs: Int
    /// Close after answering, whatever the request asked.
    public var closeAfter: Bool
    /// What the access log says of the reply besides its status; opaque to the core.
    public var note: Note

    public init(_ action: Action, delayMs: Int = 0, closeAfter: Bool = false, note: Note = Note()) {
        self.action = action
        self.delayMs = delayMs
        self.closeAfter = closeAfter
        self.note = note
    }

    public static func respond(_ response: HTTPResponse, note: Note = Note()) -> Reply {
        Reply(.respond(response), note: note)
    }

    /// Adds header fields to the response it sends, if it sends one.
    public mutating func addFields(_ fields: [(name: String, value: String)]) {
        guard !fields.isEmpty else { return }
        switch action {
        case .respond(let response): action = .respond(response.adding(fields))
        case .stream(let response, let stream): action = .stream(response.adding(fields), stream)
        case .later(let pending): pending.addFields(fields)
        case .upgrade(let response, let channel): action = .upgrade(response.adding(fields), channel)
        case .transport: break
        }
    }

    /// The status the reply sends, or `nil` when a transport action sends none.
    public var status: Int? {
        switch action {
        case .respond(let response), .stream(let response, _), .upgrade(let response, _): response.status.code
        case .transport, .later: nil
        }
    }

    /// Words for the access log: what answered, what became of the request besides its status, and why; and
    /// the responder's own number for the request, handed back with the reply in ``HTTPResponder/didSend``.
    public struct Note: Sendable {
        /// What became of a request besides the status it got.
        public enum Outcome: Sendable, Equatable {
            /// A transport-level misbehaviour was carried out, by the name the access log shows.
            case fault(String)
            /// The request was passed on to another server, whose status the reply has.
            case relayed
        }

        // Spelled `Optional<…>`, which, unlike `T?`, gets no implicit `nil`: with it, every assignment in the
        // initializer replaced a value already there, and each note made was copied whole and the original
        // destroyed.
        public var source: Optional<String>
        public var outcome: Optional<Outcome>
        public var reason: Optional<String>
        public var sequence: Optional<Int>

        public init(source: String? = nil, outcome: Outcome? = nil, reason: String? = nil) {
            self.source = source
            self.outcome = outcome
            self.reason = reason
            sequence = nil
        }
    }
}

/// Misbehaviour at the transport level: what a broken server or network does to a client.
public enum TransportAction: Sendable {
    /// Abort with a TCP reset (SO_LINGER 0).
    case reset
    /// Close without sending a byte.
    case close
    /// Send these bytes (not HTTP), then close.
    case sendThenClose([UInt8])
    /// Send `response`'s head announcing `announcedLength` body bytes and then only `response.body`
    /// (no body byte for HEAD), then close.
    case truncate(HTTPResponse, announcedLength: Int)
    /// Send nothing; close after this many milliseconds.
    case hold(milliseconds: Int)
}
