/// One event of a `text/event-stream` response (HTML Living Standard §9.2): its type, its data, and the id a
/// reconnecting client sends back as `Last-Event-ID`.
public struct ServerSentEvent: Sendable, Equatable {
    /// The event type: the stream's `event:` field, `message` when it gave none.
    public var event: String
    /// The `data:` lines, joined by line feeds.
    public var data: String
    /// The last event id the stream gave (`id:`), carried over to later events that give none.
    public var id: String?
    /// The reconnection time the stream asked for (`retry:`), in milliseconds, if this event's block gave one.
    public var retry: Int?

    /// An event as a stream would give it: of type `event`, with `data`, the last `id` and this block's `retry`.
    public init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}

/// Reads server-sent events from a stream's bytes as they arrive, as a browser's `EventSource` does (HTML Living
/// Standard §9.2.6): lines end at CR, LF or CRLF; a blank line dispatches the event; `:` starts a comment; a field's
/// value loses one leading space; `data` lines are joined by line feeds; `id` holding NUL and `retry` not all digits
/// are ignored; an event whose data is empty is not dispatched, and neither is one the stream ends in the middle of.
/// Pure: fed bytes, never a socket, so it can be tested and fuzzed alone.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var lastID: String?
    private var retry: Int?
    /// The last byte was a CR: an LF right after it ends no second line.
    private var afterCR = false
    /// Nothing read yet: a byte order mark there is dropped.
    private var atStart = true

    /// A reader at the start of a stream.
    public init() {}

    /// Takes the next bytes of the stream; returns the events they complete, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 10 { continue }
            }
            switch byte {
            case 10, 13:
                afterCR = byte == 13
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    /// A line ended: a blank one dispatches the event, another is a field or a comment.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        guard line.first != UInt8(ascii: ":") else { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch name {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(10) }
            data += value
            hasData = true
        case "id":
            if !value.contains(0) { lastID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                retry = Int(String(decoding: value, as: UTF8.self))
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
            retry = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(event: eventType.isEmpty ? "message" : eventType,
                               data: String(decoding: data, as: UTF8.self), id: lastID, retry: retry)
    }
}

/// The events of a `text/event-stream` body read from its bytes as they arrive: on Apple platforms,
/// `ServerSentEvents(try await URLSession.shared.bytes(for: request).0)`. (swift-corelibs-foundation on Linux has no
/// `URLSession.bytes(for:)`; feed any async sequence of bytes there.)
///
/// ```swift
/// let (bytes, _) = try await URLSession.shared.bytes(for: request)
/// for try await event in ServerSentEvents(bytes) where event.event == "token" {
///     answer += event.data
/// }
/// ```
public struct ServerSentEvents<Bytes: AsyncSequence>: AsyncSequence where Bytes.Element == UInt8 {
    public typealias Element = ServerSentEvent

    private let bytes: Bytes

    /// The events of `bytes`, a stream's body.
    public init(_ bytes: Bytes) {
        self.bytes = bytes
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(bytes: bytes.makeAsyncIterator())
    }

    /// Reads bytes until an event is complete.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var bytes: Bytes.AsyncIterator
        private var parser = ServerSentEventParser()
        private var ready: [ServerSentEvent] = []

        init(bytes: Bytes.AsyncIterator) {
            self.bytes = bytes
        }

        /// The next event, or `nil` once the body ends (an event it ends in the middle of is dropped, as in a browser).
        public mutating func next() async throws -> ServerSentEvent? {
            while ready.isEmpty {
                guard let byte = try await bytes.next() else { return nil }
                ready = parser.feed(CollectionOfOne(byte))
            }
            return ready.removeFirst()
        }
    }
}
