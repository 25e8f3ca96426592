/// Parses a request line and header section (without the final empty line) into a request.
public struct HeadParser {
    public let bytes: UnsafeRawBufferPointer
    public let limits: HTTPLimits

    public init(bytes: UnsafeRawBufferPointer, limits: HTTPLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Parses into `request`, the storage of a request already answered: a connection's keep-alive requests
    /// then allocate nothing for their heads and fields (see ``HTTPHeaders/overwrite(_:name:known:value:)``).
    /// Storage something else still holds (a delayed reply) is not written into: it is copied first.
    public func parse(into request: inout HTTPRequest) throws(HTTPParseError) {
        // One pass over the lines; no intermediate arrays.
        guard let requestLine = try line(from: 0) else { throw .bad("empty request") }
        guard requestLine.count <= limits.requestLineBytes else {
            throw HTTPParseError(.uriTooLong, "request line exceeds \(limits.requestLineBytes) bytes")
        }
        guard bytes.count - requestLine.count <= limits.headerBytes else {
            throw HTTPParseError(.headerFieldsTooLarge, "header section exceeds \(limits.headerBytes) bytes")
        }
        try parseRequestLine(requestLine, into: &request)
        var next = requestLine.upperBound + 2
        var count = 0
        while next <= bytes.count {
            guard count < limits.headerCount else {
                throw HTTPParseError(.headerFieldsTooLarge, "more than \(limits.headerCount) header fields")
            }
            let field: Field
            if let line = wellFormedField(from: next) {
                field = line
            } else {
                // Checked step by step, for the reason it is malformed (or for a line the one pass does not take).
                guard let line = try line(from: next) else { break }
                let (name, value, known) = try parseField(line)
                field = Field(name: name, value: value, known: known, end: line.upperBound)
            }
            request.facts.note(name: field.name, value: field.value)
            request.headers.overwrite(count, name: field.name, known: field.known, value: field.value)
            count += 1
            next = field.end + 2
        }
        request.headers.keepFirst(count)
        try Self.checkHost(count: request.facts.hostCount, version: request.version)
    }

    /// The line starting at `start`, up to (not including) its CRLF or the end of the head. The C
    /// library finds the CR, then checks that no LF comes before it.
    private func line(from start: Int) throws(HTTPParseError) -> Range<Int>? {
        guard start <= bytes.count else { return nil }
        let end = POSIX.firstIndex(of: 13, in: bytes, start..<bytes.count) ?? bytes.count
        if POSIX.firstIndex(of: 10, in: bytes, start..<end) != nil { throw .bad("bare LF in header section") }
        if end < bytes.count {
            guard end + 1 < bytes.count, bytes[end + 1] == 10 else { throw .bad("bare CR in header section") }
        }
        return start..<end
    }

    private func parseRequestLine(_ range: Range<Int>, into request: inout HTTPRequest) throws(HTTPParseError) {
        var firstSpace = range.lowerBound
        while firstSpace < range.upperBound, bytes[firstSpace] != 32 { firstSpace += 1 }
        var secondSpace = firstSpace + 1
        // The target is visible ASCII up to the space: found and checked in one pass, unless it holds another byte;
        // eight bytes at a time, then byte by byte from the word holding the space (a byte at a time throughout
        // cost more).
        while secondSpace + 8 <= range.upperBound,
              Self.allVisible(bytes.loadUnaligned(fromByteOffset: secondSpace, as: UInt64.self)) {
            secondSpace += 8
        }
        while secondSpace < range.upperBound, bytes[secondSpace] &- 33 <= 93 { secondSpace += 1 }
        let targetChecked = secondSpace < range.upperBound && bytes[secondSpace] == 32
        while secondSpace < range.upperBound, bytes[secondSpace] != 32 { secondSpace += 1 }
        guard secondSpace < range.upperBound, firstSpace > range.lowerBound, secondSpace > firstSpace + 1 else {
            throw .bad("malformed request line")
        }
        let methodBytes = UnsafeRawBufferPointer(rebasing: bytes[range.lowerBound..<firstSpace])
        let targetBytes = UnsafeRawBufferPointer(rebasing: bytes[(firstSpace + 1)..<secondSpace])
        for byte in methodBytes where !Self.isTokenByte(byte) { throw .bad("malformed method") }
        if !targetChecked { throw .bad("malformed request target") }
        let version = try parseVersion(UnsafeRawBufferPointer(rebasing: bytes[(secondSpace + 1)..<range.upperBound]))
        let method = KnownMethod(methodBytes)
        let bounds = try TargetBounds(of: targetBytes, isOptions: method == .options)
        // The previous request's fields stay, to be written over (see ``HTTPHeaders/overwrite(_:name:known:value:)``).
        request.rewrite(method: method, methodBytes: methodBytes, head: bytes, target: (firstSpace + 1)..<secondSpace,
                        bounds: bounds, version: version)
        request.headers.reserveCapacity(8)
    }

    /// Whether each of the eight bytes in `word` is visible ASCII (33 to 126): none below 33 (the borrow test),
    /// none of 127 (the carry test) and none of 128 or more (the high bits).
    @inline(__always)
    static func allVisible(_ word: UInt64) -> Bool {
        let below33 = (word &- 0x2121_2121_2121_2121) & ~word
        let above126 = word &+ 0x0101_0101_0101_0101
        return (below33 | above126 | word) & 0x8080_8080_8080_8080 == 0
    }

    /// The field names clients send most, spelled as they send them, as literals (which cost no UTF-8 check);
    /// any other spelling is made into a string as it came.
    private static func knownFieldName(_ bytes: UnsafeRawBufferPointer) -> String? {
        switch bytes.count {
        case 4 where same(bytes, "Host"): "Host"
        case 6 where same(bytes, "Accept"): "Accept"
        case 10 where same(bytes, "User-Agent"): "User-Agent"
        case 10 where same(bytes, "Connection"): "Connection"
        case 12 where same(bytes, "Content-Type"): "Content-Type"
        case 13 where same(bytes, "Authorization"): "Authorization"
        case 14 where same(bytes, "Content-Length"): "Content-Length"
        case 15 where same(bytes, "Accept-Encoding"): "Accept-Encoding"
        case 15 where same(bytes, "Accept-Language"): "Accept-Language"
        default: nil
        }
    }

    /// Whether `bytes` are `literal`'s, byte for byte (the caller has compared the counts). Also ``KnownMethod``'s.
    /// Inlined, so that the count each caller has compared picks the word loads (``ShortBytes``) there, where a call
    /// to `memcmp` cost more than the comparison.
    @inline(__always)
    static func same(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        ShortBytes.equal(bytes, UnsafeRawBufferPointer(start: literal.utf8Start, count: bytes.count))
    }

    private func parseVersion(_ text: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPVersion {
        guard text.count == 8, Self.same(UnsafeRawBufferPointer(rebasing: text[..<5]), "HTTP/"), text[6] == UInt8(ascii: "."),
              (48...57).contains(text[5]), (48...57).contains(text[7])
        else { throw .bad("malformed HTTP version") }
        guard text[5] == UInt8(ascii: "1"), text[7] <= UInt8(ascii: "1") else {
            throw HTTPParseError(.versionNotSupported, "only HTTP/1.0 and HTTP/1.1 are supported")
        }
        return text[7] == UInt8(ascii: "1") ? .http11 : .http10
    }

    /// The field's name and its value without surrounding spaces and tabs, checked.
    /// The field's name, its value without surrounding spaces and tabs, and the name as a literal when it is
    /// one of the common ones; checked.
    private func parseField(_ range: Range<Int>) throws(HTTPParseError)
        -> (name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, known: String?)
    {
        // Index loops over the head's bytes: through slices and their iterators each field cost more.
        let (start, end) = (range.lowerBound, range.upperBound)
        guard start < end else { throw .bad("empty header line") }
        if bytes[start] == 32 || bytes[start] == 9 { throw .bad("obsolete line folding is not allowed") }
        guard let colon = POSIX.firstIndex(of: UInt8(ascii: ":"), in: bytes, start..<end) else {
            throw .bad("header line without a colon")
        }
        guard colon > start else { throw .bad("empty header name") }
        let name = UnsafeRawBufferPointer(rebasing: bytes[start..<colon])
        // A common name is a token already: only another is checked byte by byte.
        let known = Self.knownFieldName(name)
        if known == nil {
            for byte in name where !Self.isTokenByte(byte) {
                throw .bad(bytes[colon - 1] == 32 || bytes[colon - 1] == 9 ? "whitespace before a header colon" : "malformed header name")
            }
        }
        let (valueStart, valueEnd) = trimmed(colon + 1, end)
        // Eight bytes at a time, then byte by byte from the first word that holds a control byte or a tab.
        var index = valueStart
        while index + 8 <= valueEnd, Self.noControlByte(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        for index in index..<valueEnd where bytes[index] < 32 && bytes[index] != 9 || bytes[index] == 127 {
            throw .bad("control character in header value")
        }
        return (name, UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), known)
    }

    /// The header field whose line starts at `start`, found and checked in one pass, and where its line ends (at
    /// its CR, or at the end of the head); `nil` for a line it does not take whole, which ``line(from:)`` and
    /// ``parseField(_:)`` then check step by step. Those find the line's CR, check it for a bare LF, and find
    /// the colon, each by a call to the C library, before the value is checked for control bytes; here the colon
    /// is found, and the value checked up to the CR that ends it.
    private func wellFormedField(from start: Int) -> Field? {
        let count = bytes.count
        guard start < count, bytes[start] != 32, bytes[start] != 9,
              let colon = POSIX.firstIndex(of: UInt8(ascii: ":"), in: bytes, start..<count), colon > start
        else { return nil }
        let name = UnsafeRawBufferPointer(rebasing: bytes[start..<colon])
        let known = Self.knownFieldName(name)
        if known == nil {
            for byte in name where !Self.isTokenByte(byte) { return nil }
        }
        // Eight bytes at a time while no byte is below 32 or 127, then byte by byte up to the CR.
        var end = colon + 1
        while end + 8 <= count, Self.noControlByte(bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)) {
            end += 8
        }
        while end < count {
            let byte = bytes[end]
            if byte >= 32 && byte != 127 || byte == 9 {
                end += 1
            } else if byte == 13 && end + 1 < count && bytes[end + 1] == 10 {
                break
            } else {
                return nil
            }
        }
        let (valueStart, valueEnd) = trimmed(colon + 1, end)
        return Field(name: name, value: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), known: known, end: end)
    }

    /// The bounds of the bytes from `start` to `end` without leading and trailing spaces and tabs (a field value's).
    @inline(__always)
    private func trimmed(_ start: Int, _ end: Int) -> (start: Int, end: Int) {
        var (start, end) = (start, end)
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        return (start, end)
    }

    /// A header field's name and value (without surrounding spaces and tabs) in the head, the name as a literal when
    /// it is a common one, and where its line ends. A struct: as a tuple holding a string, it was copied through the
    /// runtime's generic tuple code.
    private struct Field {
        let name: UnsafeRawBufferPointer
        let value: UnsafeRawBufferPointer
        let known: String?
        let end: Int
    }

    /// Whether none of the eight bytes in `word` is below 32 (a control byte, or a tab) or 127 (DEL): the borrow
    /// test for below 32, and the zero-byte test on the word with each byte XORed with 127.
    @inline(__always)
    static func noControlByte(_ word: UInt64) -> Bool {
        let below32 = (word &- 0x2020_2020_2020_2020) & ~word
        let flipped = word ^ 0x7F7F_7F7F_7F7F_7F7F
        let del = (flipped &- 0x0101_0101_0101_0101) & ~flipped
        return (below32 | del) & 0x8080_8080_8080_8080 == 0
    }

    private static func checkHost(count: Int, version: HTTPVersion) throws(HTTPParseError) {
        guard count <= 1 else { throw .bad("more than one Host header") }
        if version == .http11 && count == 0 {
            throw .bad("HTTP/1.1 request without a Host header")
        }
    }

    /// RFC 9110 §5.6.2 tchar.
    @inline(__always)
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        // Bit n of the word for bytes 64n..<64n+64: one shift and mask instead of a switch per byte.
        let word = byte < 64 ? tokenLow : byte < 128 ? tokenHigh : 0
        return word >> UInt64(byte & 63) & 1 == 1
    }

    /// tchar in bytes 0–63 (`!#$%&'*+-.` and digits) and 64–127 (letters and `^_`|~`), as literals so that a
    /// check costs no lazy-global access; `HTTPRequestParserTests` compares them with the RFC's list.
    private static let tokenLow: UInt64 = 0x03FF_6CFA_0000_0000
    private static let tokenHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE
}
