/// A response as the target sent it: status, reason phrase, header fields in order, and the body with its
/// transfer coding removed.
public struct UpstreamResponse: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public var status: Int
    public var reason: String
    /// The header fields in order: made from ``lines`` when asked, unless set.
    public var fields: [Field] {
        get { setFields ?? lines.fields }
        set { setFields = newValue }
    }
    /// The field lines as the target sent them, when ``fields`` was not set: the proxy relays them as bytes.
    var sentLines: FieldLines? { setFields == nil ? lines : nil }
    private var lines = FieldLines()
    private var setFields: [Field]?
    public var body: [UInt8]
    /// Milliseconds from the request's first byte sent to the head read (set by ``UpstreamClient``).
    public var headMs: Double?
    /// The body went on to a ``UpstreamClient/BodySink`` as it arrived: ``body`` is empty.
    public var streamed = false

    public init(status: Int, reason: String, fields: [Field], body: [UInt8]) {
        self.status = status
        self.reason = reason
        setFields = fields
        self.body = body
    }

    init(status: Int, reason: String, lines: FieldLines, body: [UInt8]) {
        self.status = status
        self.reason = reason
        self.lines = lines
        self.body = body
    }

    public static func == (left: UpstreamResponse, right: UpstreamResponse) -> Bool {
        left.status == right.status && left.reason == right.reason && left.fields == right.fields
            && left.body == right.body && left.headMs == right.headMs && left.streamed == right.streamed
    }
}
