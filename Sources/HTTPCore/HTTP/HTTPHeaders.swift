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
        // A long value (a token, a cookie) is compared by the C library, a vector at a time; a short one a word at a time.
        let sameValue = value.count > 64 ? Self.sameLong(fields[index].value, value) : Self.same(fields[index].value, value)
        if !sameValue { fields[index].value = String(decoding: value, as: UTF8.self) }
    }

    /// Drops the fields after the first `count`, once ``overwrite(_:name:known:value:)`` wrote those.
    mutating func keepFirst(_ count: Int) {
        if count == 0 { nameLengths = 0 }
        while fields.count > count { fields.removeLast() }
    }

    /// Whether `text` holds exactly `bytes` (a bridged string without contiguous UTF-8 counts as different), compared a
    /// word at a time: for names and short values, where a call to `memcmp` costs more than the comparison.
    private static func same(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard text.utf8.count == bytes.count else { return false }
        return text.utf8.withContiguousStorageIfAvailable { ShortBytes.equal(UnsafeRawBufferPointer($0), bytes) } ?? false
    }

    /// ``same(_:_:)`` by the C library, a vector at a time: for long values. A function of its own, chosen by the caller:
    /// one function choosing between the two comparisons was no longer inlined into ``overwrite(_:name:known:value:)``,
    /// which then retained each field for the call.
    private static func sameLong(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
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
        /// The name as given (looked up in any ASCII case).
        public let text: String
        /// ``HTTPHeaders/lengthBit(_:)`` of ``text``.
        let lengthBit: UInt64

        /// - Parameter text: The name, in any case.
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
        // Read in place: `withUTF8` needs copies of the two strings, which cost more than the comparison.
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

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    public func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
