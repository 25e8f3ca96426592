/// A position in YAML input: the byte offset, the line (from 1) and the column (from 0, in characters). The
/// column is what YAML indentation is measured in.
struct YAMLMark: Equatable {
    var offset: Int
    var line: Int
    var column: Int
}

/// The scanner's place in the input bytes; it counts lines and columns as it moves. Every byte the scanner
/// reads goes through here. The input was checked by ``validated(_:)`` to be valid UTF-8 holding no NUL,
/// so a peek past the end answers 0 and every byte below 0x80 is a whole character.
struct YAMLCursor {
    let bytes: [UInt8]
    /// Where the text starts: after a byte order mark, if there was one.
    let start: Int
    private(set) var mark: YAMLMark

    var index: Int { mark.offset }
    var column: Int { mark.column }
    var isAtEnd: Bool { mark.offset >= bytes.count }

    /// The byte `offset` bytes ahead, or 0 past the end.
    func peek(_ offset: Int = 0) -> UInt8 {
        let position = mark.offset + offset
        return position < bytes.count ? bytes[position] : 0
    }

    /// Moves past `count` bytes.
    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count {
            let byte = bytes[mark.offset]
            mark.offset += 1
            switch byte {
            case 0x0A:
                mark.line += 1
                mark.column = 0
            case 0x0D where peek() != 0x0A:     // a lone CR ends a line; in CR LF the LF does
                mark.line += 1
                mark.column = 0
            case 0x0D, 0x80...0xBF: break       // UTF-8 continuation bytes are part of the character before
            default: mark.column += 1
            }
        }
    }

    /// Moves past one line break (LF, CR LF or CR) and answers true, or answers false where there is none.
    mutating func skipBreak() -> Bool {
        switch peek() {
        case 0x0D where peek(1) == 0x0A: advance(2)
        case 0x0A, 0x0D: advance()
        default: return false
        }
        return true
    }

    /// Whether `---` or `...` stands at the start of this line, followed by a space, a break or the end.
    var isAtDocumentMarker: Bool {
        guard mark.column == 0, peek(3).isBlankBreakOrEnd else { return false }
        let first = peek()
        return (first == UInt8(ascii: "-") || first == UInt8(ascii: ".")) && peek(1) == first && peek(2) == first
    }

    /// Whether only spaces and tabs stand between the start of this line and the cursor.
    var isInIndentation: Bool {
        var position = mark.offset - 1
        while position >= start, bytes[position].isBlank { position -= 1 }
        return position < start || bytes[position].isBreak
    }

    /// Whether the cursor is at the start of the text or after a space, a tab or a break: where `#` starts a
    /// comment.
    var followsWhitespace: Bool {
        mark.offset == start || bytes[mark.offset - 1].isBlank || bytes[mark.offset - 1].isBreak
    }

    /// The text of `range`, which must start and end at character boundaries.
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// A cursor at the start of `bytes`, after a byte order mark.
    /// - Throws: ``YAMLReadError`` at the first byte that is not valid UTF-8, or the first character YAML does
    ///   not allow in a stream (C0 and C1 controls other than tab, LF, CR and NEL; DEL; U+FFFE, U+FFFF).
    static func validated(_ bytes: [UInt8]) throws(YAMLReadError) -> YAMLCursor {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var cursor = YAMLCursor(bytes: bytes, start: start, mark: YAMLMark(offset: start, line: 1, column: 0))
        var offset = start
        var iterator = bytes[start...].makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded).value
                guard isPrintable(scalar) else {
                    let hex = String(scalar, radix: 16, uppercase: true)
                    let name = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                    throw cursor.failure("the control character \(name) is not allowed in YAML; write it as an escape "
                                         + "in a double-quoted string", at: offset)
                }
                offset += encoded.count
            case .emptyInput:
                return cursor
            case .error:
                throw cursor.failure("invalid UTF-8", at: offset)
            }
        }
    }

    /// YAML 1.2 `c-printable`.
    private static func isPrintable(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// An error at the byte `offset`, found by walking there from the start.
    private mutating func failure(_ reason: String, at offset: Int) -> YAMLReadError {
        while mark.offset < offset { advance() }
        return YAMLReadError(reason, at: mark)
    }
}

extension UInt8 {
    /// A space or a tab.
    var isBlank: Bool { self == 0x20 || self == 0x09 }
    /// LF or CR.
    var isBreak: Bool { self == 0x0A || self == 0x0D }
    /// What may follow an indicator such as `-`, `:` or `---`: a blank, a break or the end (0).
    var isBlankBreakOrEnd: Bool { self == 0 || isBlank || isBreak }
    /// `,` `[` `]` `{` `}`, which end plain scalars, anchors and tags inside flow collections.
    var isFlowIndicator: Bool {
        self == UInt8(ascii: ",") || self == UInt8(ascii: "[") || self == UInt8(ascii: "]")
            || self == UInt8(ascii: "{") || self == UInt8(ascii: "}")
    }
}
