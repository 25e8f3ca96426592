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
    package var requestLineBytes = 8 * 1024
    package var headerBytes = 32 * 1024
    package var headerCount = 100
    package var bodyBytes = 8 * 1024 * 1024

    package init() {}
}
