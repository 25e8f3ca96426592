/// A parsed HTTP/1.x request. Produced by ``HTTPRequestParser``; knows nothing of sockets.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The request target exactly as sent (origin-form, absolute-form or `*`).
    public var target: String
    /// The path of the target (percent-encoded, without the query).
    public var path: Substring
    /// The query of the target, without `?`, or `nil`.
    public var query: Substring?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// What the framing and connection headers say, gathered in one pass while parsing.
    public var facts = HeaderFacts()

    /// Stands for bytes that were not a readable request, in the journal and the access log.
    public static let unreadable = HTTPRequest(method: "-", target: "-", path: "", query: nil, version: .http11,
                                        headers: HTTPHeaders(), body: [])

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

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        guard nameLengths & Self.lengthBit(name) != 0 else { return nil }
        return fields.first { Self.equal($0.name, name) }?.value
    }

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
        var (lhs, rhs) = (lhs, rhs)
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                for index in 0..<left.count where lower(left[index]) != lower(right[index]) { return false }
                return true
            }
        }
    }

    /// ASCII lowercase of `byte` (header names and the options HeaderFacts reads compare in any case).
    fileprivate static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte | 0x20 : byte
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
