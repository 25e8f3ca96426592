/// A response status with its reason phrase, which is always sent: FoundationNetworking fails a
/// status line without one ("Failed writing header").
public struct HTTPStatus: Equatable, Sendable {
    public let code: Int
    public let reason: String

    public init(_ code: Int, _ reason: String? = nil) {
        self.code = code
        self.reason = reason ?? Self.reasons[code] ?? Self.fallbackReason(code)
    }

    /// 1xx, 204 and 304 responses never carry a body, nor announce its length (RFC 9110 §6.4.1, §8.6).
    public var forbidsBody: Bool { code < 200 || code == 204 || code == 304 }

    public static let ok = HTTPStatus(200)
    public static let noContent = HTTPStatus(204)
    public static let badRequest = HTTPStatus(400)
    public static let unauthorized = HTTPStatus(401)
    public static let forbidden = HTTPStatus(403)
    public static let notFound = HTTPStatus(404)
    public static let methodNotAllowed = HTTPStatus(405)
    public static let requestTimeout = HTTPStatus(408)
    public static let contentTooLarge = HTTPStatus(413)
    public static let uriTooLong = HTTPStatus(414)
    public static let created = HTTPStatus(201)
    public static let conflict = HTTPStatus(409)
    public static let preconditionFailed = HTTPStatus(412)
    public static let unprocessableContent = HTTPStatus(422)
    public static let tooManyRequests = HTTPStatus(429)
    public static let insufficientStorage = HTTPStatus(507)
    public static let headerFieldsTooLarge = HTTPStatus(431)
    public static let internalServerError = HTTPStatus(500)
    public static let notImplemented = HTTPStatus(501)
    public static let badGateway = HTTPStatus(502)
    public static let serviceUnavailable = HTTPStatus(503)
    public static let gatewayTimeout = HTTPStatus(504)
    public static let versionNotSupported = HTTPStatus(505)

    private static let reasons: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 205: "Reset Content",
        206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
        402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required",
        412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
        418: "I'm a teapot", 422: "Unprocessable Content", 423: "Locked", 425: "Too Early", 426: "Upgrade Required",
        428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        451: "Unavailable For Legal Reasons", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
        507: "Insufficient Storage",
    ]

    private static func fallbackReason(_ code: Int) -> String {
        switch code {
        case 100..<200: "Informational"
        case 200..<300: "Success"
        case 300..<400: "Redirection"
        case 400..<500: "Client Error"
        default: "Server Error"
        }
    }
}
