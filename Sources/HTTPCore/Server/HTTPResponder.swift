/// What the HTTP core asks of the layer above it: an answer to each request, and word of what was
/// sent. Called on event-loop threads, several at once; an implementation keeps its state thread-safe
/// and never blocks.
public protocol HTTPResponder: AnyObject, Sendable {
    /// The reply to a complete request.
    /// - Parameter peerIsLoopback: Whether the client is on this machine's loopback interface.
    func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply

    /// The reply to a request whose body is chunked or longer than ``HTTPLimits/streamedBodyBytes``, from its head
    /// alone, for a responder that passes the body on as it arrives through `body` (the proxy's uploads); `nil` has
    /// the body read whole first, then answered by ``respond(to:peerIsLoopback:)`` like any other request (the
    /// default). A reply that is not ``Reply/Action/later(_:)`` closes the connection after it: the body is not read.
    func respond(toHead request: HTTPRequest, body: RequestBodyStream, peerIsLoopback: Bool) -> Reply?

    /// Whether ``respond(toHead:body:peerIsLoopback:)`` may take a body as it arrives: when `false` (the default), such
    /// bodies are read whole without asking it. Read once per connection.
    var passesBodiesOn: Bool { get }

    /// The reply to bytes that are not a request the server can read (400, 408, 413, 414, 431); the
    /// core closes the connection after it.
    func reject(_ status: HTTPStatus, reason: String) -> Reply

    /// A reply was carried out: `bytes` went out for it (the first write; a stream's later chunks are not
    /// counted). `started` is when the request's first byte arrived (monotonic), if known.
    func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?)
}

extension HTTPResponder {
    public func respond(toHead request: HTTPRequest, body: RequestBodyStream, peerIsLoopback: Bool) -> Reply? { nil }

    public var passesBodiesOn: Bool { false }
}
