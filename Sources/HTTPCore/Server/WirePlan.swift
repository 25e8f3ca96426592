/// What carrying out a ``Reply`` puts on the wire, decided without a socket: the buffers to queue and
/// what the connection does after them. Every framing and fault rule lives here, testable on its own.
struct WirePlan {
    enum After {
        /// Read the next request.
        case keepAlive
        /// Close politely once the buffers are written (FIN, then linger).
        case close
        /// Abort at once with a TCP reset.
        case reset
        /// Send nothing; close after this many milliseconds.
        case hold(milliseconds: Int)
        /// Write the stream's body as it comes; `closeAfter` when the connection cannot be reused after it.
        case stream(ReplyStream, chunked: Bool, closeAfter: Bool)
        /// Write nothing yet: wait for another thread to complete the reply.
        case wait(PendingReply)
        /// Carry the WebSocket from here on: its frames out, the client's in. The connection is not reused.
        case upgrade(WebSocketChannel)
    }

    /// Written in this order; two fields rather than an array, which would cost an allocation per request.
    private(set) var head: [UInt8] = []
    private(set) var body: [UInt8] = []
    private(set) var after = After.keepAlive
    /// A stream whose body will never be written (a HEAD request): cancel it so its producer stops.
    private(set) var unused: ReplyStream?

    /// The bytes the buffers hold, for the access log.
    var byteCount: Int { head.count + body.count }

    /// The head, leaving the plan without it.
    mutating func takeHead() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &head)
        return taken
    }

    /// The body, leaving the plan without it.
    mutating func takeBody() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &body)
        return taken
    }

    /// - Parameters:
    ///   - stopping: The server is shutting down: no connection is kept alive.
    ///   - headBuffer: Storage for the head, reused when no one else holds it (see ``HTTPResponseEncoder/head``).
    @inline(__always)
    init(_ reply: borrowing Reply, for request: borrowing HTTPRequest, stopping: Bool, date: UnsafeRawBufferPointer,
         reusing headBuffer: consuming [UInt8] = []) {
        let keepAlive = request.keepAlive && !reply.closeAfter && !stopping
        let omitBody = request.isHead
        // A finished response, the common case, is matched on its own: as a case of the switch below, whose other cases
        // keep parts of their payloads, it was matched on a copy of the whole action (three retains and releases per
        // request).
        if case .respond(let response) = reply.action {
            (head, body) = HTTPResponseEncoder.message(response, keepAlive: keepAlive, omitBody: omitBody, date: date,
                                                       reusing: consume headBuffer)
            after = keepAlive ? .keepAlive : .close
            return
        }
        switch reply.action {
        case .respond:
            break // above
        case .stream(let response, let body):
            // A body of known length is announced so; otherwise HTTP/1.1 clients get chunked coding and may
            // reuse the connection, and HTTP/1.0 ones read to the close.
            let chunked = body.length == nil && request.version == .http11
            let reusable = keepAlive && (chunked || body.length != nil)
            let framing: HTTPResponseEncoder.Framing = body.length.map { .length($0) } ?? (chunked ? .chunked : .untilClose)
            head = HTTPResponseEncoder.head(response, framing: framing, keepAlive: reusable, date: date)
            // A stream that starts while the server stops would only be cut at the end of the grace; a body of
            // known length goes out whole at once instead.
            if stopping, !omitBody, !response.status.forbidsBody, body.hasEnd, let (bytes, _) = body.readAll() {
                self.body = chunked ? WirePlan.chunk(joining: [bytes], chunked: true) + HTTPResponseEncoder.lastChunk : bytes
                after = .close
            } else if omitBody || response.status.forbidsBody || stopping {
                unused = body
                after = reusable ? .keepAlive : .close
            } else {
                after = .stream(body, chunked: chunked, closeAfter: !reusable)
            }
        case .transport(let action):
            self = WirePlan(action, omitBody: omitBody, date: date)
        case .later(let pending):
            after = .wait(pending)
        case .upgrade(let response, let channel):
            head = HTTPResponseEncoder.upgradeHead(response, date: date)
            after = .upgrade(channel)
        }
    }

    /// ``init(_:for:stopping:date:reusing:)`` with the date as an array.
    init(_ reply: Reply, for request: HTTPRequest, stopping: Bool, date: [UInt8]) {
        self = date.withUnsafeBytes { WirePlan(reply, for: request, stopping: stopping, date: $0) }
    }

    private init(_ action: TransportAction, omitBody: Bool, date: UnsafeRawBufferPointer) {
        switch action {
        case .reset:
            after = .reset
        case .close:
            after = .close
        case .sendThenClose(let bytes):
            head = bytes
            after = .close
        case .truncate(let response, let announced):
            head = HTTPResponseEncoder.head(response, framing: .length(announced), keepAlive: true, date: date)
            body = omitBody ? [] : response.body
            after = .close
        case .hold(let milliseconds):
            after = .hold(milliseconds: max(0, milliseconds))
        }
    }

    /// One buffer carrying `parts` as one part of a stream's body (copied: stream parts are small, and one
    /// buffer is one write).
    static func chunk(joining parts: [[UInt8]], chunked: Bool) -> [UInt8] {
        let count = parts.reduce(0) { $0 + $1.count }
        guard chunked else { return parts.count == 1 ? parts[0] : Array(parts.joined()) }
        var buffer = HTTPResponseEncoder.chunkHead(count)
        buffer.reserveCapacity(buffer.count + count + 2)
        for part in parts { buffer += part }
        buffer += HTTPResponseEncoder.crlf
        return buffer
    }

    /// The buffers that carry one part of a stream's body.
    static func chunk(_ bytes: [UInt8], chunked: Bool) -> [[UInt8]] {
        chunked ? [HTTPResponseEncoder.chunkHead(bytes.count), bytes, HTTPResponseEncoder.crlf] : [bytes]
    }
}
