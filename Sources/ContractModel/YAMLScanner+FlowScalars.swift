/// Plain and quoted scalars: the scalars that may also be implicit keys and may appear in flow collections.
/// Both fold line breaks: a single break becomes a space, each further empty line a `\n`.
extension YAMLScanner {
    // MARK: - Plain scalars

    /// A plain (unquoted) scalar. It ends at `: `, at ` #`, at a flow indicator inside a flow collection, or
    /// at a line indented no deeper than the block it belongs to.
    mutating func fetchPlainScalar() throws(YAMLReadError) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = cursor.mark
        let minimumIndent = indent + 1
        var text: [UInt8] = []
        var separator: [UInt8] = []           // the white space before the next run, folded
        while cursor.peek() != UInt8(ascii: "#") {
            let runStart = cursor.index
            var length = 0
            while true {
                let byte = cursor.peek(length)
                if byte.isBlankBreakOrEnd || (flowLevel > 0 && byte.isFlowIndicator) { break }
                if byte == UInt8(ascii: ":") {
                    let after = cursor.peek(length + 1)
                    if after.isBlankBreakOrEnd || (flowLevel > 0 && after.isFlowIndicator) { break }
                }
                length += 1
            }
            if length == 0 { break }
            text += separator
            text += cursor.bytes[runStart..<runStart + length]
            cursor.advance(length)
            guard let whitespace = skipPlainWhitespace(minimumIndent: minimumIndent) else { break }
            separator = whitespace
            if flowLevel == 0, cursor.column < minimumIndent { break }
        }
        append(.scalar(String(decoding: text, as: UTF8.self), .plain), at: start)
    }

    /// Skips the white space after a run of a plain scalar and answers it folded, or nil where the scalar
    /// cannot go on: no white space, or a document marker on the next line.
    private mutating func skipPlainWhitespace(minimumIndent: Int) -> [UInt8]? {
        let blanksStart = cursor.index
        while cursor.peek().isBlank { cursor.advance() }
        guard cursor.skipBreak() else {
            return cursor.index == blanksStart ? nil : Array(cursor.bytes[blanksStart..<cursor.index])
        }
        if flowLevel == 0 { allowSimpleKey = true }
        var emptyLines = 0
        while true {
            if cursor.isAtDocumentMarker { return nil }
            while cursor.peek() == UInt8(ascii: " ") { cursor.advance() }
            if cursor.peek() == 0x09 {
                // A tab may separate, but not indent: on a line indented too little, the scalar has ended.
                if flowLevel == 0, cursor.column < minimumIndent { break }
                while cursor.peek().isBlank { cursor.advance() }
            }
            guard cursor.skipBreak() else { break }
            emptyLines += 1
        }
        return emptyLines == 0 ? [UInt8(ascii: " ")] : Array(repeating: 0x0A, count: emptyLines)
    }

    // MARK: - Quoted scalars

    /// A single- or double-quoted scalar. Quoted scalars need not respect indentation (their quotes delimit
    /// them, as in libyaml), but cannot hold a document marker.
    mutating func fetchQuotedScalar() throws(YAMLReadError) {
        try saveSimpleKey()
        allowSimpleKey = false
        let start = cursor.mark
        let quote = cursor.peek()
        let isDouble = quote == UInt8(ascii: "\"")
        cursor.advance()
        var text: [UInt8] = []
        while true {
            let byte = cursor.peek()
            if cursor.isAtEnd {
                throw YAMLReadError("this \(isDouble ? "double" : "single")-quoted string is never closed", at: start)
            }
            if byte == quote {
                cursor.advance()
                guard !isDouble, cursor.peek() == quote else { break }
                text.append(quote)                                  // '' is a quote inside single quotes
                cursor.advance()
            } else if isDouble, byte == UInt8(ascii: "\\") {
                if cursor.peek(1).isBreak {
                    // An escaped line break joins the lines without a space.
                    cursor.advance()
                    _ = cursor.skipBreak()
                    let emptyLines = try skipQuotedLinePrefixes()
                    text += Array(repeating: 0x0A, count: emptyLines)
                } else {
                    try appendEscape(to: &text)
                }
            } else if byte.isBlank || byte.isBreak {
                let blanksStart = cursor.index
                while cursor.peek().isBlank { cursor.advance() }
                if cursor.skipBreak() {
                    // Trailing white space is dropped; the break folds.
                    let emptyLines = try skipQuotedLinePrefixes()
                    text += emptyLines == 0 ? [UInt8(ascii: " ")] : Array(repeating: 0x0A, count: emptyLines)
                } else {
                    text += cursor.bytes[blanksStart..<cursor.index]
                }
            } else {
                text.append(byte)
                cursor.advance()
            }
        }
        followsJSONLikeNode = true
        append(.scalar(String(decoding: text, as: UTF8.self), isDouble ? .doubleQuoted : .singleQuoted), at: start)
    }

    /// After a break inside quotes: skips each next line's leading white space and counts the empty lines.
    private mutating func skipQuotedLinePrefixes() throws(YAMLReadError) -> Int {
        var emptyLines = 0
        while true {
            if cursor.isAtDocumentMarker {
                throw failure("a document marker cannot be inside a quoted string; is a quote missing?")
            }
            while cursor.peek().isBlank { cursor.advance() }
            guard cursor.skipBreak() else { return emptyLines }
            emptyLines += 1
        }
    }

    /// One escape sequence of a double-quoted scalar, the cursor at its `\`.
    private mutating func appendEscape(to text: inout [UInt8]) throws(YAMLReadError) {
        let start = cursor.mark
        cursor.advance()
        guard !cursor.isAtEnd else { throw YAMLReadError("this double-quoted string is never closed", at: start) }
        let code = cursor.peek()
        var codeEnd = cursor.index + 1
        while codeEnd < cursor.bytes.count, (0x80...0xBF).contains(cursor.bytes[codeEnd]) { codeEnd += 1 }
        let shown = cursor.text(cursor.index..<codeEnd)
        cursor.advance()
        let scalar: Unicode.Scalar?
        switch code {
        case UInt8(ascii: "0"): scalar = "\u{00}"
        case UInt8(ascii: "a"): scalar = "\u{07}"
        case UInt8(ascii: "b"): scalar = "\u{08}"
        case UInt8(ascii: "t"), 0x09: scalar = "\t"
        case UInt8(ascii: "n"): scalar = "\n"
        case UInt8(ascii: "v"): scalar = "\u{0B}"
        case UInt8(ascii: "f"): scalar = "\u{0C}"
        case UInt8(ascii: "r"): scalar = "\r"
        case UInt8(ascii: "e"): scalar = "\u{1B}"
        case UInt8(ascii: " "): scalar = " "
        case UInt8(ascii: "\""): scalar = "\""
        case UInt8(ascii: "/"): scalar = "/"
        case UInt8(ascii: "\\"): scalar = "\\"
        case UInt8(ascii: "N"): scalar = "\u{85}"
        case UInt8(ascii: "_"): scalar = "\u{A0}"
        case UInt8(ascii: "L"): scalar = "\u{2028}"
        case UInt8(ascii: "P"): scalar = "\u{2029}"
        case UInt8(ascii: "x"): scalar = Unicode.Scalar(try hexDigits(2, escapeAt: start))
        case UInt8(ascii: "u"): scalar = try utf16Escape(escapeAt: start)
        case UInt8(ascii: "U"):
            scalar = Unicode.Scalar(try hexDigits(8, escapeAt: start))
            if scalar == nil { throw YAMLReadError("this \\U escape is not a Unicode character", at: start) }
        default:
            throw YAMLReadError("'\\\(shown)' is not an escape sequence of YAML double-quoted strings", at: start)
        }
        text += (scalar ?? "\u{FFFD}").utf8
    }

    /// `\uXXXX`, joining a UTF-16 surrogate pair written as two escapes as JSON does; a lone surrogate becomes
    /// U+FFFD, as in ``JSONReader``.
    private mutating func utf16Escape(escapeAt start: YAMLMark) throws(YAMLReadError) -> Unicode.Scalar? {
        let high = try hexDigits(4, escapeAt: start)
        if (0xD800..<0xDC00).contains(high), cursor.peek() == UInt8(ascii: "\\"), cursor.peek(1) == UInt8(ascii: "u") {
            let save = cursor
            cursor.advance(2)
            let low = try hexDigits(4, escapeAt: start)
            if (0xDC00..<0xE000).contains(low) {
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            cursor = save
        }
        return Unicode.Scalar(high)
    }

    private mutating func hexDigits(_ count: Int, escapeAt start: YAMLMark) throws(YAMLReadError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            let byte = cursor.peek()
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw YAMLReadError("this escape needs \(count) hexadecimal digits", at: start)
            }
            value = value << 4 | UInt32(digit)
            cursor.advance()
        }
        return value
    }
}
