/// A parsed HTTP/1.x request. Produced by ``HTTPRequestParser``; knows nothing of sockets.
public struct HTTPRequest: Sendable {
    public private(set) var method: String
    /// Whether ``method`` is `HEAD`, noted when it is set: the request path asks for every request, and comparing two
    /// short strings that differ calls into the runtime (about 25 instructions).
    public var isHead: Bool { knownMethod == .head }
    /// ``method`` as one of the common ones, noted by the parser: a connection's next request of the same method
    /// keeps the string it has, where storing it again cost a retain and a release (and making it, more).
    private var knownMethod: KnownMethod
    /// The request line and header fields exactly as received, without the empty line that ends the head (so the
    /// last field without its CRLF): what the journal keeps of a request, and where the target is read. The parser
    /// writes each request's into the storage of the one before (see ``HTTPRequestParser/parse(_:into:)``). A
    /// request made in code (``init(method:target:version:headers:body:)``) has the head it would be received
    /// as; changing ``headers`` afterwards does not change it.
    public private(set) var head: [UInt8]
    public var version: HTTPVersion
    public var headers: HTTPHeaders
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
    /// ``TargetBounds/init(of:method:)``); a target it rejects is all path.
    public init(method: String, target: String, version: HTTPVersion = .http11, headers: HTTPHeaders = HTTPHeaders(),
                body: [UInt8] = []) {
        let head = Self.head(method: method, target: target, version: version, fields: headers.fields)
        let targetStart = method.utf8.count + 1
        let targetEnd = targetStart + target.utf8.count
        let bounds = head.withUnsafeBytes { head in
            let target = UnsafeRawBufferPointer(rebasing: head[targetStart..<targetEnd])
            return (try? TargetBounds(of: target, isOptions: method == "OPTIONS"))
                ?? TargetBounds(pathStart: 0, pathEnd: Int32(target.count), queryStart: -1)
        }
        var method = method
        knownMethod = method.withUTF8 { KnownMethod(UnsafeRawBufferPointer($0)) }
        self.method = method
        self.head = head
        (self.targetStart, self.targetEnd) = (Int32(targetStart), Int32(targetEnd))
        self.bounds = bounds
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// A request with no method, target or fields: the storage a connection's first request is parsed into.
    public init() {
        self.init(method: "", target: "")
    }

    /// The head a request with these parts is received as (see ``head``): the request line, then each field as
    /// `name: value`, the lines joined by CRLF.
    public static func head(method: String, target: String, version: HTTPVersion,
                            fields: [(name: String, value: String)]) -> [UInt8] {
        var head = Array("\(method) \(target) HTTP/1.\(version.minor)".utf8)
        for field in fields {
            head += "\r\n\(field.name): \(field.value)".utf8
        }
        return head
    }

    /// Writes the request line's parts over this request's, and `head` into its storage when no one else holds it.
    /// - Parameter target: Where the target lies in `head`.
    /// - Parameter methodBytes: The method's bytes, made into ``method`` when it is not `method`'s, or not a common one.
    mutating func rewrite(method: KnownMethod, methodBytes: UnsafeRawBufferPointer, head: UnsafeRawBufferPointer,
                          target: Range<Int>, bounds: TargetBounds, version: HTTPVersion) {
        if method == .other || method != knownMethod {
            self.method = method.name ?? String(decoding: methodBytes, as: UTF8.self)
            knownMethod = method
        }
        self.head.overwrite(with: head)
        (targetStart, targetEnd) = (Int32(target.lowerBound), Int32(target.upperBound))
        self.bounds = bounds
        self.version = version
        facts = HeaderFacts()
        if !body.isEmpty { body = [] }
    }

    /// The request target's bytes exactly as sent, in place in ``head``.
    public var targetBytes: ArraySlice<UInt8> { head[Int(targetStart)..<Int(targetEnd)] }

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
    // substring's UTF-8 view, as before, the bytes were reached by a generic slice method: about 130
    // instructions a call.)
    public func withPathBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard bounds.pathEnd > bounds.pathStart else { return ("/" as StaticString).withUTF8Buffer(body) }
        // The closures capture the bounds, not the request: capturing `self` copied the whole request, and
        // destroyed the copy, about 230 instructions a call.
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

/// The methods requests carry most, told from their bytes (case-sensitive, RFC 9110 §9.1) without making a string.
enum KnownMethod: UInt8 {
    case other, get, head, post, put, patch, delete, options

    init(_ bytes: UnsafeRawBufferPointer) {
        func same(_ literal: StaticString) -> Bool {
            POSIX.equal(bytes, UnsafeRawBufferPointer(start: literal.utf8Start, count: bytes.count))
        }
        switch bytes.count {
        case 3 where same("GET"): self = .get
        case 4 where same("HEAD"): self = .head
        case 4 where same("POST"): self = .post
        case 3 where same("PUT"): self = .put
        case 5 where same("PATCH"): self = .patch
        case 6 where same("DELETE"): self = .delete
        case 7 where same("OPTIONS"): self = .options
        default: self = .other
        }
    }

    /// The method as a literal, which costs no UTF-8 check and no storage; `nil` for another.
    var name: String? {
        switch self {
        case .other: nil
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .options: "OPTIONS"
        }
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
    /// surrounding spaces and tabs. Compares the bytes in place: comparing the field's strings cost about
    /// 220 instructions for a request with one field (Tests/Benchmarks/instructions.sh).
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

/// Header fields in arrival order, looked up case-insensitively.
public struct HTTPHeaders: Sendable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []
    /// Bit `n % 64` is set when a name of `n` bytes is present: a lookup of a name no field has the
    /// length of (most requests carry none of the `X-Mock-…` fields asked for each) ends without a
    /// comparison.
    private var nameLengths: UInt64 = 0

    public init() {}

    public mutating func append(name: String, value: String) {
        fields.append((name, value))
        nameLengths |= Self.lengthBit(name)
    }

    /// The bit that stands for `name`'s length in a mask of name lengths (bit `n % 64` for `n` bytes): a name
    /// whose bit a mask lacks is surely not among the names it was made from.
    public static func lengthBit(_ name: String) -> UInt64 {
        1 << UInt64(name.utf8.count & 63)
    }

    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    // MARK: Written over by the parser

    /// Makes field `index` of the request being parsed (the first `index` written already) the one of these
    /// bytes, over the fields of the connection's previous request, whose storage these are (see
    /// ``HeadParser/parse(into:)``). A field whose bytes are the previous request's at that place keeps its strings: a
    /// connection's requests repeat most of their fields (`Host`, `User-Agent`, a token), which then cost no
    /// UTF-8 check, and a long value no allocation. Call ``keepFirst(_:)`` after the last field.
    /// - Parameter known: The name as a literal, when it is one of the common ones.
    mutating func overwrite(_ index: Int, name: UnsafeRawBufferPointer, known: String?, value: UnsafeRawBufferPointer) {
        if index == 0 { nameLengths = 0 }
        nameLengths |= 1 << UInt64(name.count & 63)
        guard index < fields.count else {
            fields.append((known ?? String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            return
        }
        let sameName = known.map { fields[index].name == $0 } ?? Self.same(fields[index].name, name)
        if !sameName { fields[index].name = known ?? String(decoding: name, as: UTF8.self) }
        if !Self.same(fields[index].value, value) { fields[index].value = String(decoding: value, as: UTF8.self) }
    }

    /// Drops the fields after the first `count`, once ``overwrite(_:name:known:value:)`` wrote those.
    mutating func keepFirst(_ count: Int) {
        if count == 0 { nameLengths = 0 }
        while fields.count > count { fields.removeLast() }
    }

    /// Whether `text` holds exactly `bytes` (a bridged string without contiguous UTF-8 counts as different).
    private static func same(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard text.utf8.count == bytes.count else { return false }
        return text.utf8.withContiguousStorageIfAvailable { POSIX.equal(UnsafeRawBufferPointer($0), bytes) } ?? false
    }

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        guard nameLengths & Self.lengthBit(name) != 0 else { return nil }
        return fields.first { Self.equal($0.name, name) }?.value
    }

    /// The first value of `name`, whose length is counted once, not at every look-up (the request path looks up
    /// the `X-Mock-…` fields of every request, which most carry none of).
    public subscript(name: Name) -> String? {
        guard nameLengths & name.lengthBit != 0 else { return nil }
        // A field has its length: looked up by text (the closure there captures a string, not this struct).
        return self[name.text]
    }

    /// A field name prepared for look-ups (``subscript(_:)-(Name)``).
    public struct Name: Sendable {
        public let text: String
        let lengthBit: UInt64

        public init(_ text: String) {
            self.text = text
            lengthBit = HTTPHeaders.lengthBit(text)
        }
    }

    /// Whether a field may have a name of a length set in `mask` (made by ``lengthBit(_:)``): when not, no field has
    /// any of the names the mask was made from.
    public func mayHaveName(ofLengthIn mask: UInt64) -> Bool { nameLengths & mask != 0 }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        guard nameLengths & Self.lengthBit(name) != 0 else { return [] }
        return fields.filter { Self.equal($0.name, name) }.map(\.value)
    }

    /// The comma-separated tokens of every `name` field, lower-cased.
    public func tokens(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpaces().lowercased() }
    }


    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// ASCII case-insensitive comparison without allocating.
    public static func equal(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Read in place: `withUTF8` on copies of the two strings cost about 130 instructions a comparison.
        let same = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in equal(left, right) }
        }
        if let same, let same { return same }
        // A bridged string without contiguous UTF-8: compared from copies.
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        return left.withUnsafeBufferPointer { left in right.withUnsafeBufferPointer { right in equal(left, right) } }
    }

    private static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<left.count where lower(left[index]) != lower(right[index]) { return false }
        return true
    }

    /// ASCII lowercase of `byte` (header names, and the options HeaderFacts reads, compare in any case).
    @inlinable
    public static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte | 0x20 : byte
    }
}

extension Array {
    /// Empties the array, keeping its storage when uniquely held, as `removeAll(keepingCapacity: true)` does, but
    /// element by element from the end: for a request's few fields about 20 instructions, where the standard one
    /// goes through a generic `replaceSubrange` at about 140 (Tests/Benchmarks/instructions.sh). Inlinable: a generic
    /// function called from another module otherwise runs unspecialized.
    @inlinable
    package mutating func removeAllKeepingStorage() {
        while !isEmpty { removeLast() }
    }
}

extension Array where Element == UInt8 {
    /// Makes these bytes `bytes`' copy, in this array's storage when no one else holds it: bytes of the same length
    /// (a connection's requests, most often, or the journal's entries for one endpoint) are copied over in place,
    /// where `replaceSubrange` is generic code (about 80 instructions more). Inlinable, as
    /// ``removeAllKeepingStorage()``.
    @inlinable
    package mutating func overwrite(with bytes: UnsafeRawBufferPointer) {
        guard count == bytes.count, count > 0 else { return replaceSubrange(0..<count, with: bytes) }
        withUnsafeMutableBytes { $0.copyMemory(from: bytes) }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    public func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
