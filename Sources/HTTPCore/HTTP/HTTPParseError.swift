/// Why a request could not be parsed, with the status the server answers before closing.
package struct HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    package let status: HTTPStatus
    package let reason: String

    package init(_ status: HTTPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    package static func bad(_ reason: String) -> HTTPParseError { HTTPParseError(.badRequest, reason) }

    package var description: String { "\(status.code) \(status.reason): \(reason)" }
}

/// The parser's size limits (DESIGN.md §5). Exceeding one answers 414, 431 or 413.
package struct HTTPLimits: Sendable {
    package var requestLineBytes: Int
    package var headerBytes: Int
    package var headerCount: Int
    package var bodyBytes: Int

    package init(requestLineBytes: Int = 8 * 1024, headerBytes: Int = 32 * 1024, headerCount: Int = 100,
                 bodyBytes: Int = 8 * 1024 * 1024) {
        self.requestLineBytes = requestLineBytes
        self.headerBytes = headerBytes
        self.headerCount = headerCount
        self.bodyBytes = bodyBytes
    }
}
