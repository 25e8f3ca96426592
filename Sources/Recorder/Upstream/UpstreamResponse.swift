/// A response as the target sent it: status, reason phrase, header fields in order, and the body with its
/// transfer coding removed.
public struct UpstreamResponse: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public var status: Int
    public var reason: String
    public var fields: [Field]
    public var body: [UInt8]
    /// Milliseconds from the request's first byte sent to the head read (set by ``UpstreamClient``).
    public var headMs: Double?
    /// The body went on to a ``UpstreamClient/BodySink`` as it arrived: ``body`` is empty.
    public var streamed = false
}
