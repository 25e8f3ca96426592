/// The parts of a head as the journal keeps it: a request's as received (``HTTPRequest/head``: a request line, then
/// `name: value` lines, joined by CRLF), or a response's as prepared (a status line, then `name: value` lines, each
/// ended by CRLF; the framing fields are not in it). Read in one place for the journal's listings, in Swift and in
/// JSON, and for the redaction of a head; the HTTP fuzzer checks that they read a request's head as the parser did.
package enum HeadFields {
    /// Calls `body` with the byte ranges of each field's name and value in `head`, in order; the value without the
    /// spaces and tabs around it (RFC 9110 §5.5), as the request parser reads it. A line without a colon is skipped.
    package static func forEach(in head: [UInt8], _ body: (_ name: Range<Int>, _ value: Range<Int>) -> Void) {
        var lineStart = head.firstIndex(of: 10).map { $0 + 1 } ?? head.endIndex
        while lineStart < head.endIndex {
            let lineEnd = head[lineStart...].firstIndex(of: 10) ?? head.endIndex
            var end = lineEnd
            if end > lineStart, head[end - 1] == 13 { end -= 1 }
            if let colon = head[lineStart..<end].firstIndex(of: UInt8(ascii: ":")) {
                var valueStart = colon + 1
                while valueStart < end, head[valueStart] == UInt8(ascii: " ") || head[valueStart] == 9 {
                    valueStart += 1
                }
                while end > valueStart, head[end - 1] == UInt8(ascii: " ") || head[end - 1] == 9 { end -= 1 }
                body(lineStart..<colon, valueStart..<end)
            }
            lineStart = lineEnd + 1
        }
    }

    /// Where the method and the target lie in a request head's first line (`method SP target SP version`): the
    /// target runs to the line's last space, so that a target made in code with a space in it reads back whole.
    package static func requestLine(in head: [UInt8]) -> (method: Range<Int>, target: Range<Int>) {
        let lineEnd = head.firstIndex(of: 13) ?? head.endIndex
        let line = head[..<lineEnd]
        guard let firstSpace = line.firstIndex(of: 32) else { return (line.indices, lineEnd..<lineEnd) }
        let lastSpace = line.lastIndex(of: 32) ?? lineEnd
        return (0..<firstSpace, (firstSpace + 1)..<max(firstSpace + 1, lastSpace))
    }
}
