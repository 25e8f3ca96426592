/// A response to send: a status line and header fields encoded once, and a body. Framing headers
/// (`Content-Length`, `Date`, `Connection`) are added per send by ``HTTPResponseEncoder``.
public struct HTTPResponse: Sendable {
    public let status: HTTPStatus
    /// `HTTP/1.1 <code> <reason>\r\n` and the header fields, each ending in CRLF.
    public let head: [UInt8]
    public var body: [UInt8]

    public init(status: HTTPStatus, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.init(status: status, head: HTTPResponseEncoder.statusAndFields(status, headers), body: body)
    }

    /// A response whose head was encoded ahead of time (a mock scenario's, prepared at start-up).
    public init(status: HTTPStatus, head: [UInt8], body: [UInt8]) {
        self.status = status
        self.head = head
        self.body = body
    }

    /// The same response with more header fields after the prepared ones.
    public func adding(_ fields: [(name: String, value: String)]) -> HTTPResponse {
        HTTPResponse(status: status, head: head + HTTPResponseEncoder.fields(fields), body: body)
    }

    /// A JSON document as the body.
    public static func json(_ status: HTTPStatus, _ body: [UInt8], headers: [(name: String, value: String)] = [])
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8"),
                                               ("Cache-Control", "no-store")] + headers,
                     body: body)
    }
}

/// Writes status lines and header sections (RFC 9112 §4, §5). Pure; the `Date` value is passed in.
public enum HTTPResponseEncoder {
    /// How the end of a body is told (RFC 9112 §6.3).
    public enum Framing {
        /// `Content-Length`: the announced length (which differs from the body's for `truncated_body`).
        case length(Int)
        /// `Transfer-Encoding: chunked`, for a body produced as it goes.
        case chunked
        /// Neither: the body ends when the connection closes (a stream to an HTTP/1.0 client).
        case untilClose
    }

    /// The bytes of `response` as they go on the wire: its head, and its body unless the request was
    /// HEAD or the status forbids one (the head then announces what the body would have been).
    public static func message(_ response: HTTPResponse, keepAlive: Bool, omitBody: Bool, date: UnsafeRawBufferPointer,
                               reusing buffer: consuming [UInt8] = []) -> (head: [UInt8], body: [UInt8])
    {
        let head = Self.head(response, framing: .length(response.body.count), keepAlive: keepAlive, date: date,
                             reusing: consume buffer)
        return (head, omitBody || response.status.forbidsBody ? [] : response.body)
    }

    /// The full head of `response`, ending with the empty line. The body is written separately, uncopied.
    /// - Parameter buffer: Storage to write the head into when no one else holds it (the connection's
    ///   previous head, long written): then the head costs no allocation.
    public static func head(_ response: HTTPResponse, framing: Framing, keepAlive: Bool, date: UnsafeRawBufferPointer,
                            reusing buffer: consuming [UInt8] = []) -> [UInt8] {
        // The fixed parts are static strings: as arrays in `static let`s, each cost a lazy-global check and a
        // retain and release per response.
        var length: Int?
        var framingField: StaticString = ""
        if !response.status.forbidsBody {
            switch framing {
            case .length(let count): length = max(0, count)
            case .chunked: framingField = "Transfer-Encoding: chunked\r\n"
            case .untilClose: break
            }
        }
        let contentLengthPrefix: StaticString = "Content-Length: "
        let datePrefix: StaticString = "Date: "
        let lineEnd: StaticString = "\r\n"
        let suffix: StaticString = keepAlive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n"
        let digits = length.map(decimalDigits) ?? 0
        let lengthField = length == nil ? 0 : contentLengthPrefix.utf8CodeUnitCount + digits + lineEnd.utf8CodeUnitCount
        let count = response.head.count + lengthField + framingField.utf8CodeUnitCount + datePrefix.utf8CodeUnitCount
            + date.count + suffix.utf8CodeUnitCount
        // Resized to the head's length (heads of one endpoint are the same length, so usually not at all), then
        // written in place: no allocation when the storage is not shared.
        var bytes = consume buffer
        if bytes.count > count {
            bytes.removeLast(bytes.count - count)
        } else if bytes.count < count {
            bytes.append(contentsOf: repeatElement(0, count: count - bytes.count))
        }
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard var at = buffer.baseAddress else { return }
            @inline(__always) func put(_ part: [UInt8]) {
                part.withUnsafeBufferPointer { source in
                    guard let start = source.baseAddress else { return }
                    at.update(from: start, count: source.count)
                    at += source.count
                }
            }
            @inline(__always) func put(_ part: UnsafeRawBufferPointer) {
                guard let start = part.baseAddress else { return }
                UnsafeMutableRawPointer(at).copyMemory(from: start, byteCount: part.count)
                at += part.count
            }
            @inline(__always) func put(_ part: StaticString) {
                at.update(from: part.utf8Start, count: part.utf8CodeUnitCount)
                at += part.utf8CodeUnitCount
            }
            put(response.head)
            if var value = length {
                put(contentLengthPrefix)
                at += digits
                var digit = at
                repeat {
                    digit -= 1
                    digit.pointee = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                } while value > 0
                put(lineEnd)
            }
            put(framingField)
            put(datePrefix)
            put(date)
            put(suffix)
        }
        return bytes
    }

    /// ``message(_:keepAlive:omitBody:date:reusing:)`` with the date as an array.
    public static func message(_ response: HTTPResponse, keepAlive: Bool, omitBody: Bool, date: [UInt8],
                               reusing buffer: consuming [UInt8] = []) -> (head: [UInt8], body: [UInt8])
    {
        var storage = consume buffer
        return date.withUnsafeBytes { date in
            // Handed on unshared, so that it is written in place.
            var taken: [UInt8] = []
            swap(&taken, &storage)
            return message(response, keepAlive: keepAlive, omitBody: omitBody, date: date, reusing: consume taken)
        }
    }

    /// ``head(_:framing:keepAlive:date:reusing:)`` with the date as an array.
    public static func head(_ response: HTTPResponse, framing: Framing, keepAlive: Bool, date: [UInt8],
                            reusing buffer: consuming [UInt8] = []) -> [UInt8] {
        var storage = consume buffer
        return date.withUnsafeBytes { date in
            // Handed on unshared, so that it is written in place.
            var taken: [UInt8] = []
            swap(&taken, &storage)
            return head(response, framing: framing, keepAlive: keepAlive, date: date, reusing: consume taken)
        }
    }

    /// The size line that starts a chunk of `count` bytes (RFC 9112 §7.1); `crlf` ends it.
    public static func chunkHead(_ count: Int) -> [UInt8] {
        Array(String(count, radix: 16).utf8) + crlf
    }

    /// The head of a `101 Switching Protocols` response: its fields, the date, and `Connection: Upgrade` in place of
    /// the keep-alive field; no framing, as no HTTP body follows (RFC 9110 §15.2.2).
    static func upgradeHead(_ response: HTTPResponse, date: UnsafeRawBufferPointer) -> [UInt8] {
        response.head + Array("Date: ".utf8) + Array(date) + Array("\r\nConnection: Upgrade\r\n\r\n".utf8)
    }

    public static let crlf: [UInt8] = [13, 10]
    /// The last chunk and the empty trailer section.
    public static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// The status line and `fields`, CRLF-terminated; CR and LF inside names or values are dropped so
    /// no contract value can split the response.
    public static func statusAndFields(_ status: HTTPStatus, _ fields: [(name: String, value: String)]) -> [UInt8] {
        Array("HTTP/1.1 \(status.code) \(status.reason)\r\n".utf8) + Self.fields(fields)
    }

    /// Header field lines, each ending in CRLF. Names keep only token characters and values no control
    /// character but HTAB (RFC 9110 §5.1, §5.5), so no value given to the server can split or bend the
    /// response; the contract loader reports such names and values before they get here.
    public static func fields(_ fields: [(name: String, value: String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 })
        for (name, value) in fields {
            // Copied whole when every byte may stay, as nearly every name and value is; else byte by byte.
            if name.utf8.allSatisfy(HeadParser.isTokenByte) {
                bytes.append(contentsOf: name.utf8)
            } else {
                for byte in name.utf8 where HeadParser.isTokenByte(byte) { bytes.append(byte) }
            }
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: " "))
            if value.utf8.allSatisfy(isValueByte) {
                bytes.append(contentsOf: value.utf8)
            } else {
                for byte in value.utf8 where isValueByte(byte) { bytes.append(byte) }
            }
            bytes.append(13)
            bytes.append(10)
        }
        return bytes
    }

    /// A byte a field value may hold: no control character but HTAB.
    @inline(__always)
    @inlinable public static func isValueByte(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != 0x7F || byte == 9 }

    /// `100 Continue`, for a request that sent `Expect: 100-continue`.
    public static let continueHead: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// How many decimal digits `value` (not negative) is written with.
    private static func decimalDigits(_ value: Int) -> Int {
        var (value, digits) = (max(0, value), 1)
        while value >= 10 {
            value /= 10
            digits += 1
        }
        return digits
    }
}
