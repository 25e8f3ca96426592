/// Why a request could not be parsed, with the status the server answers before closing.
struct HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    let status: HTTPStatus
    let reason: String

    init(_ status: HTTPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    static func bad(_ reason: String) -> HTTPParseError { HTTPParseError(.badRequest, reason) }

    var description: String { "\(status.code) \(status.reason): \(reason)" }
}

/// The parser's size limits (DESIGN.md §5). Exceeding one answers 414, 431 or 413.
struct HTTPLimits: Sendable {
    var requestLineBytes = 8 * 1024
    var headerBytes = 32 * 1024
    var headerCount = 100
    var bodyBytes = 8 * 1024 * 1024
}
