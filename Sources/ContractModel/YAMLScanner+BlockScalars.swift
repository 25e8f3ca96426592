/// Literal (`|`) and folded (`>`) block scalars: text laid out by indentation, as OpenAPI descriptions often
/// are. The header may give an indentation indicator (1-9, relative to the enclosing block) and a chomping
/// indicator: `-` strips the final line breaks, `+` keeps them all, and by default one is kept.
extension YAMLScanner {
    private enum Chomping { case strip, clip, keep }

    mutating func fetchBlockScalar(literal: Bool) throws(YAMLReadError) {
        allowSimpleKey = true                 // a key may start on the line after the scalar
        try removeSimpleKey()
        let start = cursor.mark
        cursor.advance()
        var chomping = Chomping.clip
        var indicator: Int?
        var chompingSeen = false
        for _ in 0..<2 {
            let byte = cursor.peek()
            if !chompingSeen, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                chomping = byte == UInt8(ascii: "-") ? .strip : .keep
                chompingSeen = true
            } else if indicator == nil, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte) {
                indicator = Int(byte - UInt8(ascii: "0"))
            } else if byte == UInt8(ascii: "0") {
                throw failure("a block scalar's indentation indicator is a digit from 1 to 9")
            } else {
                break
            }
            cursor.advance()
        }
        while cursor.peek().isBlank { cursor.advance() }
        if cursor.peek() == UInt8(ascii: "#"), cursor.followsWhitespace {
            while !cursor.peek().isBreak, !cursor.isAtEnd { cursor.advance() }
        }
        guard cursor.skipBreak() || cursor.isAtEnd else {
            throw failure("a block scalar's text starts on the line after its '\(literal ? "|" : ">")' header; only "
                          + "'-', '+', a digit 1-9 and a comment may follow the header")
        }

        // The content indentation: given by the indicator, else that of the first non-empty line.
        let minimumIndent = indent + 1
        let contentIndent: Int
        var emptyLines: Int
        if let indicator {
            contentIndent = max(indent, 0) + indicator
            emptyLines = skipBlockEmptyLines(contentIndent: contentIndent)
        } else {
            var deepestEmptyLine = 0
            emptyLines = 0
            while true {
                while cursor.peek() == UInt8(ascii: " ") { cursor.advance() }
                guard cursor.peek().isBreak else { break }
                deepestEmptyLine = max(deepestEmptyLine, cursor.column)
                _ = cursor.skipBreak()
                emptyLines += 1
            }
            let hasText = !cursor.isAtEnd && !cursor.isAtDocumentMarker && cursor.column >= minimumIndent
            if hasText && deepestEmptyLine > cursor.column {
                throw failure("an empty line above has more spaces than this first line of the block scalar; "
                              + "give an indentation indicator, or remove the spaces")
            }
            contentIndent = hasText ? cursor.column : max(minimumIndent, deepestEmptyLine)
        }

        // The lines of text, each without its indentation.
        var text: [UInt8] = []
        var endsWithBreak = false
        while cursor.column == contentIndent, !cursor.isAtEnd, !cursor.isAtDocumentMarker {
            text += Array(repeating: 0x0A, count: emptyLines)
            let startsWithBlank = cursor.peek().isBlank
            let lineStart = cursor.index
            while !cursor.peek().isBreak, !cursor.isAtEnd { cursor.advance() }
            text += cursor.bytes[lineStart..<cursor.index]
            endsWithBreak = cursor.skipBreak()
            emptyLines = skipBlockEmptyLines(contentIndent: contentIndent)
            guard cursor.column == contentIndent, !cursor.isAtEnd, !cursor.isAtDocumentMarker else { break }
            // Folding joins two lines of text with a space, unless either is more indented or an empty line
            // came between (that empty line is the `\n` then).
            if !literal && !startsWithBlank && !cursor.peek().isBlank {
                if emptyLines == 0 { text.append(UInt8(ascii: " ")) }
            } else {
                text.append(0x0A)
            }
        }
        if chomping != .strip && endsWithBreak { text.append(0x0A) }
        if chomping == .keep { text += Array(repeating: 0x0A, count: emptyLines) }
        append(.scalar(String(decoding: text, as: UTF8.self), literal ? .literal : .folded), at: start)
    }

    /// Skips the indentation of this line and the empty lines after it, and counts those empty lines.
    private mutating func skipBlockEmptyLines(contentIndent: Int) -> Int {
        var emptyLines = 0
        while true {
            while cursor.column < contentIndent, cursor.peek() == UInt8(ascii: " ") { cursor.advance() }
            guard cursor.skipBreak() else { return emptyLines }
            emptyLines += 1
        }
    }
}
