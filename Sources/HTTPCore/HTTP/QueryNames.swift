/// Names to look up in many queries (a route's declared query parameters), prepared once: their UTF-8 bytes end
/// to end, so that a request's query is searched for all of them in one pass, without making a string.
public struct QueryNames: Sendable {
    /// Every name's bytes, one after another.
    private let bytes: [UInt8]
    /// Where each name that an item of a query without `%` can have is in ``bytes``, and its position among the
    /// names. A name holding a `=` or a `&` is left out: an item's name ends at its first `=`, and the item at its `&`.
    private let findable: [(name: Int, start: Int, count: Int)]
    public let count: Int

    public init(_ names: [String]) {
        var bytes: [UInt8] = []
        var findable: [(name: Int, start: Int, count: Int)] = []
        for (index, name) in names.enumerated() {
            let start = bytes.count
            bytes += name.utf8
            if !name.utf8.contains(UInt8(ascii: "=")) && !name.utf8.contains(UInt8(ascii: "&")) {
                findable.append((index, start, bytes.count - start))
            }
        }
        self.bytes = bytes
        self.findable = findable
        count = names.count
    }

    /// For a query without a `%` (see ``PercentDecoding/hasEscape(_:)``): sets `values[i]` to the byte range of the
    /// value of the first item named as the `i`-th name, as sent (empty, at the item's end, for an item without
    /// `=`), or to `nil` when there is none: what ``PercentDecoding/firstValue(of:in:escaped:)`` finds for each.
    /// The C library finds each `&`; a name is compared only where the item is long enough and has a `=` (or its
    /// end) just after it, a word at a time.
    /// - Parameter values: ``count`` elements; each is written.
    public func firstValues(inUnescaped query: UnsafeBufferPointer<UInt8>,
                            into values: UnsafeMutableBufferPointer<Range<Int>?>) {
        precondition(values.count >= count, "one value per name")
        for index in 0..<count { values[index] = nil }
        guard let base = query.baseAddress, !findable.isEmpty else { return }
        let raw = UnsafeRawBufferPointer(query)
        bytes.withUnsafeBytes { names in
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
                                  Self.equal(base + start, names.baseAddress! + wanted.start, count: wanted.count)
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
    }

    /// Whether `count` bytes at `a` equal those at `b`: eight at a time, the last eight (or four) overlapping the
    /// ones before, as names are short and a call to `memcmp` costs more than comparing them.
    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        func word<Word: FixedWidthInteger>(_ offset: Int, _: Word.Type) -> Bool {
            a.loadUnaligned(fromByteOffset: offset, as: Word.self) == b.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        switch count {
        case 8...:
            var offset = 0
            while offset + 8 < count {
                guard word(offset, UInt64.self) else { return false }
                offset += 8
            }
            return word(count - 8, UInt64.self)
        case 4...: return word(0, UInt32.self) && word(count - 4, UInt32.self)
        case 2...: return word(0, UInt16.self) && word(count - 2, UInt16.self)
        case 1: return a.load(as: UInt8.self) == b.load(as: UInt8.self)
        default: return true
        }
    }
}
