/// A fixture body marked `"template": true`, parsed once at contract load into literal bytes and
/// placeholders, so that rendering a response only copies bytes and inserts values.
///
/// `{{` opens a placeholder and the first `}}` after it closes it; spaces around the expression are
/// ignored and a `|` starts a default, used when the request has no such value:
///
/// ```text
/// {"id": {{path.id}}, "page": {{query.page_no|1}}, "request": "{{header.X-Request-Id}}",
///  "name": {{body/user/name}}, "at": {{now}}, "call": {{counter}}, "braces": "{{"{{"}}"}
/// ```
///
/// In a JSON response a placeholder inside a string is escaped into it, and one outside any string
/// becomes a whole JSON value (see ``Insertion``). A `}}` in literal text is just text; the only way to
/// write a literal `{{` is the quoted literal `{{"{{"}}`.
///
/// Lines and columns (``Placeholder/line``, ``Placeholder/column``, ``Problem``) are 1-based and count
/// bytes of UTF-8, not characters: after an `é` a column is one more than an editor shows.
package struct ResponseTemplate: Sendable {
    /// What a placeholder reads.
    package enum Source: Sendable, Hashable {
        /// `{{path.id}}`: a path parameter of the endpoint.
        case path(String)
        /// `{{query.page_no}}`: the first value of a declared query parameter, percent-decoded.
        case query(String)
        /// `{{header.X-Request-Id}}`: a request header; the name is case-insensitive.
        case header(String)
        /// `{{body/user/name}}`: an RFC 6901 pointer into the JSON or form request body; `{{body}}` is the
        /// whole body, pointer `""`.
        case body(pointer: String)
        /// `{{now}}`: the time in ISO 8601, UTC, to the second: `2026-11-23T10:00:00Z`.
        case now
        /// `{{now.epoch}}`: seconds since 1970.
        case nowEpoch
        /// `{{uuid}}`: a random version 4 UUID in lower case.
        case uuid
        /// `{{counter}}`: how many times the endpoint was called, as the caller counts.
        case counter
        /// `{{"{{"}}`: the text between the quotes, as is (there are no escapes inside).
        case literal(String)
    }

    /// How a value is written into the response, decided by where the placeholder stands.
    package enum Insertion: Sendable, Hashable {
        /// As is: any value of a template that is not JSON, or a number or boolean outside a JSON string.
        case raw
        /// Inside a JSON string: the value's text, JSON-escaped, without quotes.
        case jsonEscaped
        /// Outside a JSON string, for a value that is text: a JSON string literal, quotes included.
        case jsonQuoted
        /// `{{body…}}` outside a JSON string: the JSON value itself, compact, whatever its type.
        case jsonValue
    }

    /// One `{{…}}`, read and checked.
    package struct Placeholder: Sendable, Hashable {
        package let source: Source
        /// The text after the first `|`, trimmed: `20` in `{{query.items_per_page|20}}`.
        package let fallback: String?
        package let insertion: Insertion
        /// The placeholder as written, braces included, for messages.
        package let text: String
        /// The position of its `{{` in the fixture, 1-based, in bytes.
        package let line: Int, column: Int
    }

    /// Literal bytes or a placeholder; consecutive literal bytes are always one piece.
    package enum Piece: Sendable {
        case literal([UInt8])
        case placeholder(Placeholder)
    }

    package let pieces: [Piece]
    /// Whether the response is JSON: ``Insertion/raw`` values must then be written as JSON numbers.
    package let isJSON: Bool
    /// The number of literal bytes, to reserve a response's capacity at once.
    package let literalByteCount: Int

    /// Whether a placeholder reads `{{counter}}`, so the endpoint's calls must be counted.
    package var usesCounter: Bool {
        pieces.contains { if case .placeholder(let placeholder) = $0 { placeholder.source == .counter } else { false } }
    }

    /// Whether a placeholder reads the request body, which is then parsed once per request.
    package var usesBody: Bool {
        pieces.contains { piece in
            guard case .placeholder(let placeholder) = piece, case .body = placeholder.source else { return false }
            return true
        }
    }

    /// What the contract says about the endpoint and its response, to check placeholders against.
    package struct Context: Sendable {
        /// Every path parameter of the endpoint with its declared type (`string` when undeclared).
        package var pathParameters: [String: FieldType]
        /// The declared query parameters; a template may read no other.
        package var query: [String: FieldType]
        /// Whether the response's content type is JSON (`…/json` or `…+json`).
        package var isJSON: Bool

        package init(pathParameters: [String: FieldType] = [:], query: [String: FieldType] = [:], isJSON: Bool) {
            self.pathParameters = pathParameters
            self.query = query
            self.isJSON = isJSON
        }
    }

    /// Why a fixture is not a valid template, at the position of the placeholder at fault.
    package struct Problem: Error, Equatable, CustomStringConvertible {
        package let line: Int, column: Int, message: String

        package init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        package var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Parses a fixture once, at contract load; rendering never parses again.
    ///
    /// Every placeholder is checked against `context`, and a JSON template is filled with sample values
    /// and read back, so that a fixture which would render invalid JSON fails at load.
    /// - Throws: The first ``Problem``, at the position of its placeholder.
    package static func parse(_ bytes: [UInt8], context: Context) throws(Problem) -> ResponseTemplate {
        var pieces: [Piece] = []
        var starts: [Int] = []                   // each piece's offset in `bytes`, to place shape problems
        var literalStart = 0
        var literalByteCount = 0
        var line = 1
        var lineStart = 0
        var inString = false                     // inside a JSON string of the literal text
        var escaped = false                      // after a `\` inside that string
        var index = 0

        func endLiteral(at end: Int) {
            guard literalStart < end else { return }
            pieces.append(.literal(Array(bytes[literalStart..<end])))
            starts.append(literalStart)
            literalByteCount += end - literalStart
        }

        while index < bytes.count {
            let byte = bytes[index]
            if byte == brace, index + 1 < bytes.count, bytes[index + 1] == brace {
                let column = index - lineStart + 1
                guard let close = closingBraces(in: bytes, from: index + 2) else {
                    let message = "unclosed placeholder \(excerpt(bytes, from: index)); close it with }}"
                    throw Problem(line: line, column: column, message: message)
                }
                endLiteral(at: index)
                let placeholder = try Placeholder.parse(
                    text: String(decoding: bytes[index..<close + 2], as: UTF8.self),
                    expression: String(decoding: bytes[index + 2..<close], as: UTF8.self),
                    line: line, column: column, insideString: inString, context: context
                )
                pieces.append(.placeholder(placeholder))
                starts.append(index)
                for offset in index..<close where bytes[offset] == newline {
                    line += 1
                    lineStart = offset + 1
                }
                escaped = false
                index = close + 2
                literalStart = index
                continue
            }
            if byte == newline {
                line += 1
                lineStart = index + 1
            }
            if escaped {
                escaped = false
            } else if byte == quote {
                inString.toggle()
            } else if byte == backslash && inString {
                escaped = true
            }
            index += 1
        }
        endLiteral(at: bytes.count)

        let template = ResponseTemplate(pieces: pieces, isJSON: context.isJSON, literalByteCount: literalByteCount)
        if context.isJSON {
            try template.checkBareValuesStandAlone()
            try template.checkJSONShape(of: bytes, pieceStarts: starts, context: context)
        }
        return template
    }

    /// The offset of the first `}}` at or after `start`.
    private static func closingBraces(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == closingBrace && bytes[index + 1] == closingBrace { return index }
            index += 1
        }
        return nil
    }

    /// The text from `start` to the end of its line, at most 40 bytes, for a message.
    private static func excerpt(_ bytes: [UInt8], from start: Int) -> String {
        let lineEnd = bytes[start...].firstIndex { $0 == newline || $0 == 13 } ?? bytes.count
        let end = min(lineEnd, start + 40)
        return String(decoding: bytes[start..<end], as: UTF8.self) + (end < lineEnd ? "…" : "")
    }

    private static let brace = UInt8(ascii: "{")
    private static let closingBrace = UInt8(ascii: "}")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    static let newline = UInt8(ascii: "\n")
}
