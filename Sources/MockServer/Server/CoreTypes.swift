import HTTPCore

// The HTTP core's types that the mock server's public API uses, so that an embedding app or test
// needs only `import MockServer`.
/// How the server waits for its sockets: epoll or io_uring on Linux, kqueue on Darwin (`--io`).
public typealias IOBackend = HTTPCore.IOBackend
/// A socket call that failed, with the call's name and the system's error.
public typealias SocketError = HTTPCore.SocketError
/// A request method, as the journal and the routes have it.
public typealias RequestMethod = HTTPCore.HTTPRequest.Method
/// One WebSocket message, text or binary, as ``MockServer/send(_:to:session:)`` pushes it.
public typealias WebSocketMessage = HTTPCore.WebSocketMessage
