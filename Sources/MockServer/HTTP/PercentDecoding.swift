/// Percent-decoding of request paths and queries (RFC 3986 §2.1), on bytes rather than Characters.
enum PercentDecoding {
    /// The path split into decoded segments, or `nil` for a malformed escape.
    ///
    /// Splitting happens before decoding, so `%2F` stays inside its segment and can never add a level.
    static func segments(of path: Substring) -> [String]? {
        var segments: [String] = []
        for part in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
            guard let decoded = decode(part) else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    /// The query's `name=value` pairs, decoded. A `+` stays a `+`: clients that mean a space send `%20`.
    static func queryItems(_ query: Substring?) -> [(name: String, value: String)]? {
        guard let query, !query.isEmpty else { return [] }
        var items: [(String, String)] = []
        for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
            let separator = pair.firstIndex(of: UInt8(ascii: "="))
            guard let name = decode(pair[..<(separator ?? pair.endIndex)]) else { return nil }
            var value = ""
            if let separator {
                guard let decoded = decode(pair[pair.index(after: separator)...]) else { return nil }
                value = decoded
            }
            items.append((name, value))
        }
        return items
    }

    /// Whether every `%` in `text` starts a valid escape (`%` and two hex digits).
    static func isWellFormed(_ text: Substring) -> Bool {
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { continue }
            guard iterator.next()?.hexDigitValue != nil, iterator.next()?.hexDigitValue != nil else { return false }
        }
        return true
    }

    /// The decoded value of the first `name` item of a well-formed query (see ``isWellFormed(_:)``),
    /// an empty string for an item without `=`, or `nil` when there is none. Allocates only the
    /// value it returns.
    static func firstValue(of name: String, in query: Substring?) -> String? {
        guard let utf8 = query?.utf8 else { return nil }
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            let pair = utf8[start..<end]
            let separator = pair.firstIndex(of: UInt8(ascii: "="))
            let itemName = pair[..<(separator ?? end)]
            let matches = itemName.contains(UInt8(ascii: "%"))
                ? decode(itemName) == name
                : itemName.elementsEqual(name.utf8)
            if matches {
                guard let separator else { return "" }
                return decode(pair[utf8.index(after: separator)...])
            }
            start = end < utf8.endIndex ? utf8.index(after: end) : end
        }
        return nil
    }

    static func decode(_ text: Substring) -> String? { decode(text.utf8[...]) }

    static func decode(_ bytes: Substring.UTF8View.SubSequence) -> String? {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(Substring(bytes)) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else {
                return nil
            }
            decoded.append(high << 4 | low)
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
