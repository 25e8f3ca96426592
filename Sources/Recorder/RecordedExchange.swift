/// One request and the response that came back from the target, as the recorder saw them on the wire,
/// before anything is redacted. ``RecordingWriter`` turns a list of these into contracts and fixtures.
public struct RecordedExchange: Sendable, Equatable {
    /// A header field as sent, in arrival order.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    public var method: String
    /// The path as the client sent it, percent-encoded, without the query (`/v1/items/42`).
    public var path: String
    /// The query without `?`, or `nil`.
    public var query: String?
    public var requestHeaders: [Field]
    public var requestBody: [UInt8]
    public var status: Int
    public var responseHeaders: [Field]
    public var responseBody: [UInt8]
    /// Milliseconds from the request sent to the response's head read, when measured: what a scenario's
    /// `latency` is fitted to.
    public var headMs: Double?

    public init(method: String, path: String, query: String?, requestHeaders: [Field], requestBody: [UInt8],
                status: Int, responseHeaders: [Field], responseBody: [UInt8], headMs: Double? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.headMs = headMs
    }
}
