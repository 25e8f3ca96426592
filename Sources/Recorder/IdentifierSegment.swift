/// A path segment that looks like an identifier, so that when it varies between requests the recorder makes it a
/// path parameter.
///
/// The rule: a segment is an identifier when it is all digits (`42`, `0042`), a UUID
/// (`3f2504e0-4f89-11d3-9a0c-0305e82c3301`), or at least four letters, digits, `-` and `_` with a digit among them
/// (`080442957X`, `9780804429573`, `SKU-1042`, `a1b2`). A slug without a digit (`harry-potter`), a word (`books`),
/// and anything with a space or a dot (`v1.2`, `logo.png`) is not. A parameter's type comes from every sample
/// seen in its place (``kind(of:)``).
enum IdentifierSegment: Equatable {
    case integer
    case string

    /// Whether `segment` looks like an identifier.
    static func isIdentifier(_ segment: String) -> Bool {
        let bytes = Array(segment.utf8)
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy(isDigit) || isUUID(bytes) { return true }
        return bytes.count >= 4 && bytes.contains(where: isDigit) && bytes.allSatisfy { byte in
            isDigit(byte) || isLetter(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// `integer` when every sample is a plain integer (no sign, no leading zero, at most 18 digits: the server
    /// names a fixture after an `integer` parameter's plain value, so `007` would select `7.json`); otherwise
    /// `string`, UUIDs, ISBNs and zero-padded numbers included.
    static func kind(of samples: some Sequence<String>) -> IdentifierSegment {
        samples.allSatisfy { isPlainInteger(Array($0.utf8)) } ? .integer : .string
    }

    /// The type a contract declares for such a parameter.
    var declaration: String {
        switch self {
        case .integer: "integer"
        case .string: "string"
        }
    }

    private static func isPlainInteger(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy(isDigit) else { return false }
        return bytes.count == 1 || bytes[0] != UInt8(ascii: "0")
    }

    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            [8, 13, 18, 23].contains(index) ? byte == UInt8(ascii: "-") : isHexDigit(byte)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
