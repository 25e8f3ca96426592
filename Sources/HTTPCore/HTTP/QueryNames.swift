/// Names to look up in many queries (a route's declared query parameters), prepared once: their UTF-8 bytes end
/// to end, so that a request's query is searched for all of them in one pass, without making a string.
public struct QueryNames: Sendable {
    /// Every name's bytes, one after another.
    private let bytes: [UInt8]
    /// Where each name that an item of a query without `%` can have is in ``bytes``, and its position among the
    /// names. A name holding a `=` or a `&` is left out: an item's name ends at its first `=`, and the item at its `&`.
    /// A name given again (byte for byte) is not: it gets the value its first is given (``repeats``).
    private let findable: [(name: Int, start: Int, count: Int)]
    /// The positions of names given before, with the position of their first.
    private let repeats: [(name: Int, first: Int)]
    public let count: Int

    public init(_ names: [String]) {
        var bytes: [UInt8] = []
        var findable: [(name: Int, start: Int, count: Int)] = []
        var repeats: [(name: Int, first: Int)] = []
        for (index, name) in names.enumerated() {
            if let first = names[..<index].firstIndex(where: { $0.utf8.elementsEqual(name.utf8) }) {
                repeats.append((index, first))
                continue
            }
            let start = bytes.count
            bytes += name.utf8
            if !name.utf8.contains(UInt8(ascii: "=")) && !name.utf8.contains(UInt8(ascii: "&")) {
                findable.append((index, start, bytes.count - start))
            }
        }
        self.bytes = bytes
        self.findable = findable
        self.repeats = repeats
        count = names.count
    }

    /// For a query without a `%` (see ``PercentDecoding/hasEscape(_:)``): sets `values[i]` to the byte range of the
    /// value of the first item named as the `i`-th name, as sent (empty, at the item's end, for an item without
    /// `=`), or to `nil` when there is none: what ``PercentDecoding/firstValue(of:in:escaped:)`` finds for each.
    /// The C library finds each `&`; a name is compared only where the item is long enough and has a `=` (or its
    /// end) just after it, a word at a time (``ShortBytes``).
    /// - Parameter values: ``count`` elements; each is written.
    public func firstValues(inUnescaped query: UnsafeBufferPointer<UInt8>,
                            into values: UnsafeMutableBufferPointer<Range<Int>?>) {
        precondition(values.count >= count, "one value per name")
        for index in 0..<count { values[index] = nil }
        guard let base = query.baseAddress, !findable.isEmpty else { return }
        let raw = UnsafeRawBufferPointer(query)
        bytes.withUnsafeBytes { names in
            // Only empty names leave the bytes empty, and an empty name's comparison reads nothing.
            let namesBase = names.baseAddress ?? UnsafeRawPointer(base)
            findable.withUnsafeBufferPointer { findable in
                var unfound = findable.count
                var start = 0
                while start < query.count && unfound > 0 {
                    let end = POSIX.firstIndex(of: UInt8(ascii: "&"), in: raw, start..<query.count) ?? query.count
                    // An empty item (`&&`) is none, not one with an empty name.
                    if end > start {
                        for wanted in findable where values[wanted.name] == nil {
                            let nameEnd = start + wanted.count
                            guard nameEnd <= end, nameEnd == end || query[nameEnd] == UInt8(ascii: "="),
                                  ShortBytes.equal(base + start, namesBase + wanted.start, count: wanted.count)
                            else { continue }
                            values[wanted.name] = nameEnd == end ? end..<end : (nameEnd + 1)..<end
                            unfound -= 1
                            break
                        }
                    }
                    start = end + 1
                }
            }
        }
        for (name, first) in repeats { values[name] = values[first] }
    }
}
