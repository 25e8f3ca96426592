/// A response to send: status, header fields and body. Framing headers (`Content-Length`, `Date`,
/// `Connection`) are added by ``HTTPResponseEncoder``, never by handlers.
struct HTTPResponse: Sendable {
    var status: HTTPStatus
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    init(status: HTTPStatus, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON document as the body.
    static func json(_ status: HTTPStatus, _ body: [UInt8], headers: [(name: String, value: String)] = [])
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
                     body: body)
    }
}

/// Writes a status line and header section (RFC 9112 §4, §5). Pure; the `Date` value is passed in.
enum HTTPResponseEncoder {
    /// The head of `response`, ending with the empty line. The body is written separately, uncopied.
    /// - Parameters:
    ///   - contentLength: The length to announce; differs from the body only for HEAD and `truncated_body`.
    static func head(
        _ response: HTTPResponse,
        contentLength: Int,
        keepAlive: Bool,
        date: [UInt8]
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160 + response.headers.count * 40)
        bytes.append(contentsOf: "HTTP/1.1 \(response.status.code) \(response.status.reason)\r\n".utf8)
        for (name, value) in response.headers {
            append(name, value, to: &bytes)
        }
        bytes.append(contentsOf: "Content-Length: \(contentLength)\r\n".utf8)
        bytes.append(contentsOf: "Date: ".utf8)
        bytes.append(contentsOf: date)
        bytes.append(contentsOf: keepAlive ? "\r\nConnection: keep-alive\r\n\r\n".utf8 : "\r\nConnection: close\r\n\r\n".utf8)
        return bytes
    }

    /// `100 Continue`, for a request that sent `Expect: 100-continue`.
    static let continueHead: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static func append(_ name: String, _ value: String, to bytes: inout [UInt8]) {
        // Header values come from contract files; drop CR and LF so no value can split the response.
        bytes.append(contentsOf: name.utf8.filter { $0 != 13 && $0 != 10 && $0 != UInt8(ascii: ":") })
        bytes.append(contentsOf: ": ".utf8)
        bytes.append(contentsOf: value.utf8.filter { $0 != 13 && $0 != 10 })
        bytes.append(contentsOf: "\r\n".utf8)
    }
}
