import HTTPCore

// The HTTP core's types that the mock server's public API uses, so that an embedding app or test
// needs only `import MockServer`.
public typealias IOBackend = HTTPCore.IOBackend
public typealias SocketError = HTTPCore.SocketError
/// A request method, as the journal and the routes have it.
public typealias RequestMethod = HTTPCore.HTTPRequest.Method
