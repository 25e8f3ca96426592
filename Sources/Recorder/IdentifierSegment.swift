/// A path segment that looks like an identifier, so that when it varies between requests the recorder
/// makes it a path parameter: a plain integer (`42`) or a UUID (`3f2504e0-4f89-11d3-9a0c-0305e82c3301`).
enum IdentifierSegment: Equatable {
    case integer
    case uuid

    /// `nil` for anything else. An integer is written plainly (no sign, no leading zero, at most 18
    /// digits), because the server names a fixture after an `integer` parameter's plain value
    /// (`007` would select `7.json`).
    init?(_ segment: String) {
        let bytes = Array(segment.utf8)
        if Self.isPlainInteger(bytes) {
            self = .integer
        } else if Self.isUUID(bytes) {
            self = .uuid
        } else {
            return nil
        }
    }

    /// The type a contract declares for such a parameter; the format has no `uuid`, so a UUID is a `string`.
    var declaration: String {
        switch self {
        case .integer: "integer"
        case .uuid: "string"
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

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
