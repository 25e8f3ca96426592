/// Why a request could not be parsed, with the status the server answers before closing.
public struct HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let status: HTTPStatus
    public let reason: String

    public init(_ status: HTTPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public static func bad(_ reason: String) -> HTTPParseError { HTTPParseError(.badRequest, reason) }

    public var description: String { "\(status.code) \(status.reason): \(reason)" }
}

/// The parser's size limits (DESIGN.md §5). Exceeding one answers 414, 431 or 413.
public struct HTTPLimits: Sendable {
    public var requestLineBytes: Int
    public var headerBytes: Int
    public var headerCount: Int
    public var bodyBytes: Int
    /// A body longer than this, or chunked, may be passed on as it arrives rather than read whole, when the responder
    /// takes it so (``HTTPRequestParser/offersBodies``, ``HTTPResponder/respond(toHead:body:peerIsLoopback:)``): the
    /// proxy's uploads. ``bodyBytes`` does not limit such a body.
    public var streamedBodyBytes: Int

    public init(requestLineBytes: Int = 8 * 1024, headerBytes: Int = 32 * 1024, headerCount: Int = 100,
                 bodyBytes: Int = 8 * 1024 * 1024, streamedBodyBytes: Int = 1024 * 1024) {
        self.requestLineBytes = requestLineBytes
        self.headerBytes = headerBytes
        self.headerCount = headerCount
        self.bodyBytes = bodyBytes
        self.streamedBodyBytes = streamedBodyBytes
    }
}
