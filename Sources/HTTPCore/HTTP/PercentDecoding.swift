/// Percent-decoding of request paths and queries (RFC 3986 §2.1), on contiguous bytes rather than
/// Characters or string indices.
public enum PercentDecoding {
    private typealias Bytes = UnsafeBufferPointer<UInt8>
    private typealias Slice = Bytes.SubSequence

    /// The path split into decoded segments, or `nil` for a malformed escape.
    ///
    /// Splitting happens before decoding, so `%2F` stays inside its segment and can never add a level.
    public static func segments(of path: Substring) -> [String]? {
        withBytes(of: path) { bytes in
            withUnsafeTemporaryAllocation(of: Bytes.self, capacity: segmentCapacity(of: bytes)) { segments in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { scratch in
                    guard let count = split(bytes, into: segments, decodingInto: scratch) else { return nil }
                    return segments[..<count].map { String(decoding: $0, as: UTF8.self) }
                }
            }
        }
    }

    /// The most segments a path of these bytes can have (its count of `/`): the capacity
    /// ``split(_:into:decodingInto:)`` needs.
    public static func segmentCapacity(of path: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in path where byte == UInt8(ascii: "/") { count += 1 }
        return count
    }

    /// Splits the bytes of a path into percent-decoded segments without allocating: each is a slice of
    /// `path`, or, where it holds an escape, of its decoded bytes in `scratch`. Returns how many there
    /// are, or `nil` for a malformed escape. What precedes the first `/` is not a segment (so `*` has
    /// none). The server splits every request's path with it, on the stack.
    ///
    /// Splitting happens before decoding, so `%2F` stays inside its segment and can never add a level.
    /// - Parameters:
    ///   - segments: At least ``segmentCapacity(of:)`` elements.
    ///   - scratch: At least as many bytes as `path`: a decoded segment is never longer than as sent.
    public static func split(
        _ path: UnsafeBufferPointer<UInt8>,
        into segments: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>,
        decodingInto scratch: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
        if let count = splitUnescaped(path, into: segments) { return count }
        guard var start = path.firstIndex(of: UInt8(ascii: "/")).map({ $0 + 1 }) else { return 0 }
        var count = 0
        var decoded = 0
        while true {
            var end = start
            var escaped = false
            while end < path.count, path[end] != UInt8(ascii: "/") {
                if path[end] == UInt8(ascii: "%") { escaped = true }
                end += 1
            }
            if escaped {
                guard let written = decode(path[start..<end], into: UnsafeMutableBufferPointer(rebasing: scratch[decoded...]))
                else { return nil }
                segments[count] = UnsafeBufferPointer(rebasing: scratch[decoded..<(decoded + written)])
                decoded += written
            } else {
                segments[count] = UnsafeBufferPointer(rebasing: path[start..<end])
            }
            count += 1
            guard end < path.count else { return count }
            start = end + 1
        }
    }

    /// ``split(_:into:decodingInto:)`` for a path of eight bytes or more without `%`, eight bytes at a time: `nil`,
    /// with what it wrote to `segments` meaning nothing, for any other path. (A byte at a time, testing each for `/`
    /// and `%`, cost more, even for a short path.)
    private static func splitUnescaped(_ path: Bytes, into segments: UnsafeMutableBufferPointer<Bytes>) -> Int? {
        guard let base = path.baseAddress, path.count >= 8 else { return nil }
        var count = 0
        // Where the segment being read starts; none before the first `/`.
        var segmentStart = -1
        func load(at offset: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
        }
        var offset = 0
        while offset < path.count {
            // The last bytes from the path's last eight, those before them shifted out (zeros: neither `/` nor `%`).
            let word = offset + 8 <= path.count
                ? load(at: offset) : load(at: path.count - 8) >> UInt64((offset - (path.count - 8)) * 8)
            if zeroBytes(word ^ 0x2525_2525_2525_2525) != 0 { return nil }
            var slashes = zeroBytes(word ^ 0x2F2F_2F2F_2F2F_2F2F)
            while slashes != 0 {
                let slash = offset + slashes.trailingZeroBitCount / 8
                if segmentStart >= 0 {
                    segments[count] = Bytes(rebasing: path[segmentStart..<slash])
                    count += 1
                }
                segmentStart = slash + 1
                slashes &= slashes &- 1
            }
            offset += 8
        }
        guard segmentStart >= 0 else { return 0 }
        segments[count] = Bytes(rebasing: path[segmentStart...])
        return count + 1
    }

    /// The high bit of each byte of `word` that is zero, and no other bit (exact: no carry crosses a byte).
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
    }

    /// The query's `name=value` pairs, decoded. A `+` stays a `+`: clients that mean a space send `%20`.
    public static func queryItems(_ query: Substring?) -> [(name: String, value: String)]? {
        guard let query, !query.isEmpty else { return [] }
        return withBytes(of: query, queryItems)
    }

    /// ``queryItems(_:)`` on the query's bytes (empty items are skipped), or `nil` for a malformed escape.
    // Index loops: splitting with the generic `split(separator:)` cost much more per item.
    public static func queryItems(_ bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)]? {
        var items: [(name: String, value: String)] = []
        var start = 0
        while start < bytes.count {
            var end = start
            var separator = -1
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                if separator < 0 && bytes[end] == UInt8(ascii: "=") { separator = end }
                end += 1
            }
            if end > start {
                guard let name = decode(bytes[start..<(separator < 0 ? end : separator)]) else { return nil }
                guard let value = separator < 0 ? "" : decode(bytes[(separator + 1)..<end]) else { return nil }
                items.append((name, value))
            }
            start = end + 1
        }
        return items
    }

    /// Whether every `%` in `text` starts a valid escape (`%` and two hex digits).
    public static func isWellFormed(_ text: Substring) -> Bool {
        withBytes(of: text, isWellFormed)
    }

    /// ``isWellFormed(_:)`` on bytes. The C library finds each `%`: most queries have none.
    public static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while let escape = POSIX.firstIndex(of: UInt8(ascii: "%"), in: raw, index..<raw.count) {
            guard escape + 2 < raw.count, raw[escape + 1].hexDigitValue != nil, raw[escape + 2].hexDigitValue != nil
            else { return false }
            index = escape + 3
        }
        return true
    }

    /// The value of the first `name` item of a well-formed query's bytes (see ``isWellFormed(_:)``), as sent
    /// (still percent-encoded; empty for an item without `=`), or `nil` when there is none. Allocates
    /// nothing: the request validator checks each declared query parameter of every request with it, and
    /// decodes a value only to name it in a violation.
    /// - Parameter escaped: Whether `query` holds a `%` (``hasEscape(_:)``), when the caller knows: the validator
    ///   looks once per request, not once per parameter. Looked for when `nil`.
    public static func firstValue(of name: String, in query: UnsafeBufferPointer<UInt8>, escaped: Bool? = nil)
        -> UnsafeBufferPointer<UInt8>?
    {
        var name = name
        return name.withUTF8 { wanted in
            let range = escaped ?? hasEscape(query)
                ? firstValueRange(of: wanted, in: query) : unescapedValueRange(of: wanted, in: query)
            return range.map { UnsafeBufferPointer(rebasing: query[$0]) }
        }
    }

    /// Whether `bytes` hold a `%`. Without one, a query is well-formed and needs no decoding.
    public static func hasEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        POSIX.firstIndex(of: UInt8(ascii: "%"), in: UnsafeRawBufferPointer(bytes), 0..<bytes.count) != nil
    }

    /// The byte range of the first `wanted` item's value in `bytes` (empty, at the item's end, for an item
    /// without `=`), or `nil`. An item name with an escape is decoded before it is compared.
    private static func firstValueRange(of wanted: Bytes, in bytes: Bytes) -> Range<Int>? {
        let count = bytes.count
        var start = 0
        while start < count {
            // Each byte is tested against the three that matter at once: `%`, `&` and `=` are all below 64.
            var end = start
            var separator = -1
            var escaped = false
            while end < count {
                let byte = bytes[end]
                if byte < 64 && specialInQuery >> UInt64(byte) & 1 != 0 {
                    if byte == UInt8(ascii: "&") { break }
                    if separator < 0 {
                        if byte == UInt8(ascii: "=") { separator = end } else { escaped = true }
                    }
                }
                end += 1
            }
            let nameEnd = separator < 0 ? end : separator
            // An empty item (`&&`) is none, not one with an empty name.
            let matches = end == start ? false : escaped
                ? decode(bytes[start..<nameEnd]).map { $0.utf8.elementsEqual(wanted) } ?? false
                : nameEnd - start == wanted.count
                    && POSIX.equal(UnsafeRawBufferPointer(Bytes(rebasing: bytes[start..<nameEnd])), UnsafeRawBufferPointer(wanted))
            if matches { return separator < 0 ? end..<end : (separator + 1)..<end }
            start = end + 1
        }
        return nil
    }

    /// ``firstValueRange(of:in:)`` for a query without a `%`: each item's name is compared as sent, at the
    /// item's start (a `wanted` with a `%` matches none, as no item decodes to it), and the C library finds
    /// each `&`. Testing every byte for `&`, `=` and `%` in Swift cost more, on every request with a query.
    private static func unescapedValueRange(of wanted: Bytes, in bytes: Bytes) -> Range<Int>? {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = bytes.count
        var start = 0
        while start < count {
            let end = POSIX.firstIndex(of: UInt8(ascii: "&"), in: raw, start..<count) ?? count
            let nameEnd = start + wanted.count
            // An empty item (`&&`) is none, not one with an empty name.
            if end > start, nameEnd <= end,
               POSIX.equal(UnsafeRawBufferPointer(rebasing: raw[start..<nameEnd]), UnsafeRawBufferPointer(wanted)),
               nameEnd == end || bytes[nameEnd] == UInt8(ascii: "=") {
                // A `wanted` holding a `=` matches no item: an item's name ends at its first `=`.
                if POSIX.firstIndex(of: UInt8(ascii: "="), in: raw, start..<nameEnd) != nil { return nil }
                return nameEnd == end ? end..<end : (nameEnd + 1)..<end
            }
            start = end + 1
        }
        return nil
    }

    /// Bits 37, 38 and 61: `%`, `&` and `=`, the bytes a query's items and escapes turn on (a literal, so that
    /// a test costs no lazy-global access; `PercentDecodingTests` checks it).
    static let specialInQuery: UInt64 = 0x2000_0060_0000_0000

    /// The decoded value of the first `name` item of a well-formed query (see ``isWellFormed(_:)``),
    /// an empty string for an item without `=`, or `nil` when there is none. Allocates only the
    /// value it returns.
    public static func firstValue(of name: String, in query: Substring?) -> String? {
        guard let query else { return nil }
        return withBytes(of: query) { bytes in firstValue(of: name, in: bytes).map { decode($0) ?? "" } }
    }

    /// Percent-decodes `bytes` as one path segment or query value: `nil` for a malformed escape.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        decode(bytes[...])
    }

    private static func decode(_ bytes: Slice) -> String? {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        var wellFormed = true
        // Decoded straight into the string's storage: never longer than as sent.
        let text = String(unsafeUninitializedCapacity: bytes.count) { output in
            guard let written = decode(bytes, into: output) else {
                wellFormed = false
                return 0
            }
            return written
        }
        return wellFormed ? text : nil
    }

    /// Writes `bytes` percent-decoded into `output`, which holds at least `bytes.count`; returns how many
    /// bytes it wrote, or `nil` for a malformed escape.
    private static func decode(_ bytes: Slice, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        var written = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = bytes[index + 1].hexDigitValue,
                      let low = bytes[index + 2].hexDigitValue
                else { return nil }
                output[written] = high << 4 | low
                index += 3
            } else {
                output[written] = bytes[index]
                index += 1
            }
            written += 1
        }
        return written
    }

    /// Runs `body` on the UTF-8 bytes of `text`, without copying them when they are contiguous (as
    /// they are for every substring the parser makes).
    private static func withBytes<Result>(of text: Substring, _ body: (Bytes) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
