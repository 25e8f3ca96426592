/// The header fields of a response head as the journal keeps it (a status line, then `name: value` lines, each
/// ended by CRLF; the framing fields are not in it): read in one place for the journal's listings, in Swift and in
/// JSON, and for the redaction of a relayed head.
enum ResponseHeadFields {
    /// Calls `body` with the byte ranges of each field's name and value in `head`, in order; the value without the
    /// spaces and tabs after the colon. A line without a colon is skipped.
    static func forEach(in head: [UInt8], _ body: (_ name: Range<Int>, _ value: Range<Int>) -> Void) {
        var lineStart = head.firstIndex(of: 10).map { $0 + 1 } ?? head.endIndex
        while lineStart < head.endIndex {
            let lineEnd = head[lineStart...].firstIndex(of: 10) ?? head.endIndex
            var end = lineEnd
            if end > lineStart, head[end - 1] == 13 { end -= 1 }
            if let colon = head[lineStart..<end].firstIndex(of: UInt8(ascii: ":")) {
                var valueStart = colon + 1
                while valueStart < end, head[valueStart] == UInt8(ascii: " ") || head[valueStart] == 9 { valueStart += 1 }
                body(lineStart..<colon, valueStart..<end)
            }
            lineStart = lineEnd + 1
        }
    }
}
