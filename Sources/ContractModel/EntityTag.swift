/// An entity tag (RFC 9110 §8.8.3): the `ETag` of a stored item, and the tags that `If-Match` and
/// `If-None-Match` list.
package struct EntityTag: Sendable, Equatable {
    /// The tag's value without its quotes or `W/` prefix.
    package let opaque: String
    /// Whether the tag is weak (`W/"…"`): weak tags never match in a strong comparison.
    package let isWeak: Bool

    /// The tag as an `ETag` field value: `"abc"`, or `W/"abc"` when weak.
    package var header: String { (isWeak ? "W/\"" : "\"") + opaque + "\"" }

    /// A tag with the given value; `nil` when `opaque` holds a character an entity tag cannot: a double
    /// quote, a space, a control character or DEL (etagc, RFC 9110 §8.8.3).
    package init?(opaque: String, isWeak: Bool = false) {
        guard opaque.unicodeScalars.allSatisfy(Self.isTagCharacter) else { return nil }
        self.opaque = opaque
        self.isWeak = isWeak
    }

    /// The strong tag of a representation: the 16 lowercase hex digits of the FNV-1a 64-bit hash of
    /// `bytes`, so the same bytes always give the same tag.
    /// - Parameter bytes: The representation, typically an item's ``JSONValue/serialized`` bytes.
    package init(of bytes: [UInt8]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        opaque = String(repeating: "0", count: 16 - digits.count) + digits
        isWeak = false
    }

    /// What an `If-Match` or `If-None-Match` field asks for.
    package enum Condition: Sendable, Equatable {
        /// `*`: any current representation.
        case any
        /// One or more listed tags.
        case tags([EntityTag])
    }

    /// Parses an `If-Match` or `If-None-Match` field value: `*` alone, or a comma-separated list of tags,
    /// each `"…"` or `W/"…"`, with optional spaces and tabs around the commas. Empty list elements are
    /// ignored (RFC 9110 §5.6.1.2); a comma inside quotes belongs to the tag.
    ///
    /// ```swift
    /// EntityTag.parseList(#"W/"a", "b""#)  // .tags([W/"a", "b"])
    /// EntityTag.parseList("*")            // .any
    /// EntityTag.parseList("abc")          // nil: not quoted
    /// ```
    /// - Parameter field: The field value; several field lines are joined with `, ` first.
    /// - Returns: The condition, or `nil` when the value is malformed or lists no tag.
    package static func parseList(_ field: String) -> Condition? {
        let scalars = Array(field.unicodeScalars)
        var index = 0
        skipWhitespace(scalars, &index)
        if index < scalars.count, scalars[index] == "*" {
            index += 1
            skipWhitespace(scalars, &index)
            return index == scalars.count ? .any : nil
        }
        var tags: [EntityTag] = []
        while true {
            skipWhitespace(scalars, &index)
            guard index < scalars.count else { break }
            if scalars[index] == "," {
                index += 1
                continue
            }
            guard let tag = readTag(scalars, &index) else { return nil }
            tags.append(tag)
            skipWhitespace(scalars, &index)
            guard index < scalars.count else { break }
            guard scalars[index] == "," else { return nil }
            index += 1
        }
        return tags.isEmpty ? nil : .tags(tags)
    }

    /// Strong comparison (RFC 9110 §8.8.3.2): neither tag is weak and their values are the same.
    package func matchesStrongly(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaque == other.opaque
    }

    /// Weak comparison (RFC 9110 §8.8.3.2): the values are the same, whether or not either tag is weak.
    package func matchesWeakly(_ other: EntityTag) -> Bool {
        opaque == other.opaque
    }

    // MARK: - Parsing

    /// Reads `[W/]"etagc*"` at `index`, leaving `index` after the closing quote.
    private static func readTag(_ scalars: [Unicode.Scalar], _ index: inout Int) -> EntityTag? {
        var weak = false
        if index + 1 < scalars.count, scalars[index] == "W", scalars[index + 1] == "/" {
            weak = true
            index += 2
        }
        guard index < scalars.count, scalars[index] == "\"" else { return nil }
        index += 1
        let start = index
        while index < scalars.count, scalars[index] != "\"" {
            guard isTagCharacter(scalars[index]) else { return nil }
            index += 1
        }
        guard index < scalars.count else { return nil }  // unterminated
        var opaque = String.UnicodeScalarView()
        opaque.append(contentsOf: scalars[start..<index])
        index += 1
        return EntityTag(opaque: String(opaque), isWeak: weak)
    }

    private static func skipWhitespace(_ scalars: [Unicode.Scalar], _ index: inout Int) {
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
    }

    /// etagc: `!`, `#` to `~`, and obs-text (taken here as any scalar from U+0080, since field values
    /// reach us decoded).
    private static func isTagCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "!" || (0x23...0x7E).contains(scalar.value) || scalar.value >= 0x80
    }
}

extension EntityTag.Condition {
    /// Evaluates `If-Match` (RFC 9110 §13.1.1) with the strong comparison.
    /// - Parameter current: The tag of the current representation, `nil` when the item does not exist.
    /// - Returns: `true` when the item exists and `*` was sent or a listed tag matches it strongly.
    package func matchesStrongly(_ current: EntityTag?) -> Bool {
        guard let current else { return false }
        switch self {
        case .any: return true
        case .tags(let tags): return tags.contains { $0.matchesStrongly(current) }
        }
    }

    /// Evaluates `If-None-Match` (RFC 9110 §13.1.2) with the weak comparison.
    /// - Parameter current: The tag of the current representation, `nil` when the item does not exist.
    /// - Returns: `true` when the condition holds: the item does not exist, or no listed tag matches it
    ///   weakly. `*` fails for any existing item.
    package func noneMatchWeakly(_ current: EntityTag?) -> Bool {
        guard let current else { return true }
        switch self {
        case .any: return false
        case .tags(let tags): return !tags.contains { $0.matchesWeakly(current) }
        }
    }
}
