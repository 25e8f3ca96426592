/// A parsed HTTP/1.x request. Produced by ``HTTPRequestParser``; knows nothing of sockets.
public struct HTTPRequest: Sendable {
    public private(set) var method: Method
    /// Whether ``method`` is `HEAD`, from what the parser noted of the method's bytes: the request path asks for every
    /// request, and comparing two short strings that differ calls into the runtime.
    public var isHead: Bool { knownMethod == .head }
    /// ``method`` as one of the common ones, noted by the parser: a connection's next request of the same method
    /// keeps the string it has, where storing it again cost a retain and a release (and making it, more).
    private var knownMethod: KnownMethod
    /// The request line and header fields exactly as received, without the empty line that ends the head (so the
    /// last field without its CRLF): what the journal keeps of a request, and where the target is read. The parser
    /// writes each request's into the storage of the one before (see ``HTTPRequestParser/parse(_:into:)``). A
    /// request made in code (``init(method:target:version:headers:body:)``) has the head it would be received
    /// as. ``headers`` are this head's fields, in the same order (the journal marks its secret fields by their
    /// places in ``headers``): they are set only with it (see ``withoutFields(where:)``).
    public private(set) var head: [UInt8]
    public var version: HTTPVersion
    public internal(set) var headers: HTTPHeaders
    public var body: [UInt8]
    /// What the framing and connection headers say, gathered in one pass while parsing.
    public var facts = HeaderFacts()
    /// Where the target lies in ``head``.
    private var targetStart: Int32
    private var targetEnd: Int32
    /// Where ``path`` and ``query`` lie in the target (an empty path stands for `/`; a negative query start for
    /// none). Offsets rather than two substrings: those held two more references to the head's storage and
    /// 64 more bytes, retained and copied on every move of a request.
    private var bounds: TargetBounds

    /// A request for `target`, whose path and query are found as the parser finds them (see
    /// ``TargetBounds/init(of:isOptions:)``); a target it rejects is all path. Its ``head`` is made as
    /// ``head(method:target:version:fields:)`` makes it.
    public init(method: Method, target: String, version: HTTPVersion = .http11, headers: HTTPHeaders = HTTPHeaders(),
                body: [UInt8] = []) {
        let head = Self.head(method: method, target: target, version: version, fields: headers.fields)
        let targetStart = method.rawValue.utf8.count + 1
        let targetEnd = targetStart + target.utf8.count
        let bounds = head.withUnsafeBytes { head in
            let target = UnsafeRawBufferPointer(rebasing: head[targetStart..<targetEnd])
            return (try? TargetBounds(of: target, isOptions: method == "OPTIONS"))
                ?? TargetBounds(pathStart: 0, pathEnd: Int32(target.count), queryStart: -1)
        }
        var name = method.rawValue
        knownMethod = name.withUTF8 { KnownMethod(UnsafeRawBufferPointer($0)) }
        self.method = method
        self.head = head
        (self.targetStart, self.targetEnd) = (Int32(targetStart), Int32(targetEnd))
        self.bounds = bounds
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// A request with no method, target or fields: the storage a connection's first request, and each request
    /// with a body, is parsed into. It allocates nothing.
    public init() {
        method = Method(rawValue: "")
        knownMethod = .other
        head = []
        (targetStart, targetEnd) = (0, 0)
        bounds = TargetBounds(pathStart: 0, pathEnd: 0, queryStart: -1)
        version = .http11
        headers = HTTPHeaders()
        body = []
    }

    /// The head a request with these parts is received as (see ``head``): the request line, then each field as
    /// `name: value`, the lines joined by CRLF. A field whose value holds a CR or LF (which no request the parser
    /// took has) reads back from it as more than one field.
    public static func head(method: Method, target: String, version: HTTPVersion,
                            fields: [(name: String, value: String)]) -> [UInt8] {
        var head = Array("\(method) \(target) HTTP/1.\(version.minor)".utf8)
        for field in fields {
            head += "\r\n\(field.name): \(field.value)".utf8
        }
        return head
    }

    /// This request without the fields `excluded` picks: its head made again from the rest (see
    /// ``head(method:target:version:fields:)``), what the parser noted of the fields kept as it was.
    public func withoutFields(where excluded: ((name: String, value: String)) -> Bool) -> HTTPRequest {
        var kept = HTTPHeaders()
        for field in headers where !excluded(field) { kept.append(name: field.name, value: field.value) }
        var request = HTTPRequest(method: method, target: target, version: version, headers: kept, body: body)
        request.facts = facts
        return request
    }

    /// Writes the request line's parts over this request's, and `head` into its storage when no one else holds it.
    /// - Parameters:
    ///   - methodBytes: The method's bytes, made into ``method`` when it is not `method`'s, or not a common one.
    ///   - target: Where the target lies in `head`.
    mutating func rewrite(method: KnownMethod, methodBytes: UnsafeRawBufferPointer, head: UnsafeRawBufferPointer,
                          target: Range<Int>, bounds: TargetBounds, version: HTTPVersion) {
        if method == .other || method != knownMethod {
            self.method = Method(rawValue: method.name ?? String(decoding: methodBytes, as: UTF8.self))
            knownMethod = method
        }
        self.head.overwrite(with: head)
        (targetStart, targetEnd) = (Int32(target.lowerBound), Int32(target.upperBound))
        self.bounds = bounds
        self.version = version
        facts = HeaderFacts()
        if !body.isEmpty { body = [] }
    }

    /// Where the target lies in ``head``: what precedes it is the method and a space.
    public var targetRange: Range<Int> { Int(targetStart)..<Int(targetEnd) }

    /// The request target's bytes exactly as sent, in place in ``head``.
    public var targetBytes: ArraySlice<UInt8> { head[targetRange] }

    /// The request target exactly as sent (the parser admits only visible ASCII in it).
    public var target: String { String(decoding: targetBytes, as: UTF8.self) }

    /// Whether the target is `*`, the form only OPTIONS may have (RFC 9112 §3.2.4): its bytes read in place.
    public var isAsteriskForm: Bool { targetEnd == targetStart + 1 && head[Int(targetStart)] == UInt8(ascii: "*") }

    /// The path of the target (percent-encoded, without the query), as a new string: the request path reads
    /// it in place instead (``withPathBytes(_:)``).
    public var path: Substring {
        guard bounds.pathEnd > bounds.pathStart else { return "/" }
        let start = Int(targetStart)
        return Substring(String(decoding: head[(start + Int(bounds.pathStart))..<(start + Int(bounds.pathEnd))],
                                as: UTF8.self))
    }

    /// The query of the target, without `?`, or `nil`; as a new string (see ``withQueryBytes(_:)``).
    public var query: Substring? {
        guard bounds.queryStart >= 0 else { return nil }
        return Substring(String(decoding: head[Int(targetStart + bounds.queryStart)..<Int(targetEnd)], as: UTF8.self))
    }

    /// Calls `body` with the path's bytes, read in place in the head (see ``path``).
    // Not generic: called from another module, a generic function runs unspecialized. (Read through a
    // substring's UTF-8 view, as before, the bytes were reached by a generic slice method.)
    public func withPathBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard bounds.pathEnd > bounds.pathStart else { return ("/" as StaticString).withUTF8Buffer(body) }
        // The closures capture the bounds, not the request: capturing `self` copied the whole request, and
        // destroyed the copy, on every call.
        let range = Int(targetStart + bounds.pathStart)..<Int(targetStart + bounds.pathEnd)
        head.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Calls `body` with the query's bytes, read in place in the head, or with `nil` when there is no query.
    public func withQueryBytes(_ body: (UnsafeBufferPointer<UInt8>?) -> Void) {
        guard bounds.queryStart >= 0 else { return body(nil) }
        let range = Int(targetStart + bounds.queryStart)..<Int(targetEnd)
        head.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The query's items, decoded as ``PercentDecoding`` does: none without a query, `nil` for a malformed
    /// escape. Read in place in the head.
    public var queryItems: [(name: String, value: String)]? {
        var items: [(name: String, value: String)]? = []
        withQueryBytes { bytes in if let bytes { items = PercentDecoding.queryItems(bytes) } }
        return items
    }

    /// Stands for bytes that were not a readable request, in the journal and the access log.
    public static let unreadable = HTTPRequest(method: "-", target: "-")

    /// Whether the connection stays open after the response (RFC 9112 §9.3).
    public var keepAlive: Bool {
        if facts.connectionClose { return false }
        return version == .http11 || facts.connectionKeepAlive
    }
}

/// The headers that decide framing and connection handling, noted while parsing so the hot path
/// never searches the header list for them.
public struct HeaderFacts: Sendable {
    public var hostCount = 0
    public var hasContentLength = false
    public var hasTransferEncoding = false
    public var connectionClose = false
    public var connectionKeepAlive = false
    public var expectsContinue = false

    /// Notes one header field, given as the parser's bytes: the name, and the value without its
    /// surrounding spaces and tabs. Compares the bytes in place: comparing the field's strings cost more, for
    /// every field of every request.
    public mutating func note(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        switch name.count {
        case 4 where Self.equal(name, "host"):
            hostCount += 1
        case 6 where Self.equal(name, "expect"):
            expectsContinue = expectsContinue || Self.equal(value, "100-continue")
        case 10 where Self.equal(name, "connection"):
            // A comma-separated list of options (RFC 9110 §7.6.1), with optional spaces around each.
            var start = 0
            while start <= value.count {
                var end = start
                while end < value.count, value[end] != UInt8(ascii: ",") { end += 1 }
                let option = Self.trimmed(UnsafeRawBufferPointer(rebasing: value[start..<end]))
                if Self.equal(option, "close") { connectionClose = true }
                if Self.equal(option, "keep-alive") { connectionKeepAlive = true }
                start = end + 1
            }
        case 14 where Self.equal(name, "content-length"):
            hasContentLength = true
        case 17 where Self.equal(name, "transfer-encoding"):
            hasTransferEncoding = true
        default:
            break
        }
    }

    /// Whether `bytes` are `lowercase` in any ASCII case.
    private static func equal(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for index in 0..<bytes.count where HTTPHeaders.lower(bytes[index]) != expected[index] { return false }
        return true
    }

    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var (start, end) = (0, bytes.count)
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}

/// Where a request target's path and query lie in its UTF-8 (RFC 9112 §3.2), as offsets.
struct TargetBounds: Sendable {
    /// The path's bytes; an empty range stands for `/` (an absolute-form target without a path).
    var pathStart: Int32
    var pathEnd: Int32
    /// Where the query starts, after its `?`, or -1 for none; it runs to the end of the target.
    var queryStart: Int32

    init(pathStart: Int32, pathEnd: Int32, queryStart: Int32) {
        (self.pathStart, self.pathEnd, self.queryStart) = (pathStart, pathEnd, queryStart)
    }

    /// The bounds of a target in origin-form (`/path?query`), absolute-form (`http://host/path?query`) or
    /// asterisk-form (`*`, for OPTIONS only).
    init(of target: UnsafeRawBufferPointer, isOptions: Bool) throws(HTTPParseError) {
        var pathStart = 0
        if target.first != UInt8(ascii: "/") {
            if target.count == 1 && target[0] == UInt8(ascii: "*") {
                guard isOptions else { throw .bad("* is only valid for OPTIONS") }
                self.init(pathStart: 0, pathEnd: 1, queryStart: -1)
                return
            }
            guard let hostStart = Self.authorityStart(of: target) else {
                throw .bad("request target must start with / or http://")
            }
            pathStart = hostStart
            while pathStart < target.count, target[pathStart] != UInt8(ascii: "/"), target[pathStart] != UInt8(ascii: "?") {
                pathStart += 1
            }
            guard pathStart != hostStart else { throw .bad("absolute target without a host") }
        }
        let mark = POSIX.firstIndex(of: UInt8(ascii: "?"), in: target, pathStart..<target.count)
        self.init(pathStart: Int32(pathStart), pathEnd: Int32(mark ?? target.count),
                  queryStart: mark.map { Int32($0 + 1) } ?? -1)
    }

    /// Where the authority starts in an absolute-form target, after `http://` or `https://` in any case.
    private static func authorityStart(of target: UnsafeRawBufferPointer) -> Int? {
        for scheme: StaticString in ["http://", "https://"] where target.count >= scheme.utf8CodeUnitCount {
            let expected = scheme.utf8Start
            if (0..<scheme.utf8CodeUnitCount).allSatisfy({ HTTPHeaders.lower(target[$0]) == expected[$0] }) {
                return scheme.utf8CodeUnitCount
            }
        }
        return nil
    }
}

/// The protocol version of a request.
public struct HTTPVersion: Equatable, Sendable {
    public let minor: UInt8
    public static let http10 = HTTPVersion(minor: 0)
    public static let http11 = HTTPVersion(minor: 1)
}
