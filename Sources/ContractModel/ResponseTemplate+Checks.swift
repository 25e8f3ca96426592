/// The grammar of one placeholder, and the checks a template passes at load.
extension ResponseTemplate.Placeholder {
    typealias Problem = ResponseTemplate.Problem

    /// Reads the `expression` of `text` (`{{expression}}` or `{{expression|default}}`, as written) and
    /// checks it against the endpoint.
    static func parse(
        text: String,
        expression: String,
        line: Int,
        column: Int,
        insideString: Bool,
        context: ResponseTemplate.Context
    ) throws(Problem) -> Self {
        func problem(_ message: String) -> Problem { Problem(line: line, column: column, message: message) }
        let unknown = problem("unknown placeholder \(text); use path.<name>, query.<name>, header.<name>, "
                                + #"body/<pointer>, now, now.epoch, uuid, counter or "text""#)
        let expression = trimmed(expression[...])
        let source: ResponseTemplate.Source
        let fallback: String?
        if expression.first == "\"" {
            let quoted = expression.dropFirst()
            guard let end = quoted.firstIndex(of: "\"") else { throw unknown }
            let rest = trimmed(quoted[quoted.index(after: end)...])
            guard rest.isEmpty else {
                throw rest.first == "|" ? problem("\(text): a quoted literal takes no default") : unknown
            }
            source = .literal(String(quoted[..<end]))
            fallback = nil
        } else {
            let bar = expression.firstIndex(of: "|")
            guard let read = ResponseTemplate.Source(expression: trimmed(expression[..<(bar ?? expression.endIndex)]))
            else { throw unknown }
            source = read
            fallback = bar.map { String(trimmed(expression[expression.index(after: $0)...])) }
        }

        switch source {
        case .path(let name) where context.pathParameters[name] == nil:
            let names = context.pathParameters.keys.sorted().joined(separator: ", ")
            throw problem(names.isEmpty ? "\(text): the endpoint has no path parameters"
                          : "\(text): the endpoint has no path parameter \(name); its path parameters are \(names)")
        case .query(let name) where context.query[name] == nil:
            let names = context.query.keys.sorted().joined(separator: ", ")
            throw problem("\(text): query parameter \(name) is not declared; declare it under request.query"
                          + (names.isEmpty ? "" : " (declared: \(names))"))
        case .body(let pointer) where !JSONValue.isValidPointer(pointer):
            throw problem("\(text): a JSON pointer writes ~ as ~0 and / as ~1, and has no other ~")
        default:
            break
        }

        let kind = source.typedKind(in: context)
        let insertion: ResponseTemplate.Insertion
        if !context.isJSON {
            insertion = .raw
        } else if insideString {
            insertion = .jsonEscaped
        } else if case .body = source {
            insertion = .jsonValue
        } else {
            insertion = kind == nil ? .jsonQuoted : .raw
        }

        // Outside a string a default is written as JSON, so it must be JSON (and of the declared type).
        if let fallback, context.isJSON, !insideString {
            let json = Result { () throws(JSONReadError) in try JSONValue.parse(fallback.utf8) }
            if insertion == .jsonValue, case .failure(let error) = json {
                throw problem("\(text): the default is not JSON (\(error.reason)); outside a string a body "
                              + "placeholder inserts a JSON value")
            }
            if let kind, !FieldType(kind: kind).accepts(text: fallback) || (try? json.get()) == nil {
                let article = kind == .integer ? "an" : "a"
                throw problem("\(text): the default \"\(fallback)\" is not \(article) \(kind.rawValue) written as "
                              + "JSON, which a placeholder outside a string needs")
            }
        }
        return Self(source: source, fallback: fallback, insertion: insertion, text: text, line: line, column: column)
    }

    /// `text` without spaces, tabs and line breaks at either end.
    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) })
        else { return text[text.endIndex...] }
        return text[start...end]
    }
}

extension ResponseTemplate.Source {
    /// Reads an expression without its default; `nil` when it is none of the grammar's.
    init?(expression: Substring) {
        switch expression {
        case "now": self = .now
        case "now.epoch": self = .nowEpoch
        case "uuid": self = .uuid
        case "counter": self = .counter
        case "body": self = .body(pointer: "")
        case _ where expression.hasPrefix("body/"): self = .body(pointer: String(expression.dropFirst(4)))
        default:
            guard let dot = expression.firstIndex(of: ".") else { return nil }
            let name = String(expression[expression.index(after: dot)...])
            guard !name.isEmpty else { return nil }
            switch expression[..<dot] {
            case "path": self = .path(name)
            case "query": self = .query(name)
            case "header" where name.utf8.allSatisfy(ContractParser.isTokenByte): self = .header(name)
            default: return nil
            }
        }
    }

    /// The declared kind of a value written bare as a JSON number or boolean; `nil` for text and JSON.
    func typedKind(in context: ResponseTemplate.Context) -> FieldType.Kind? {
        let kind: FieldType.Kind? = switch self {
        case .path(let name): context.pathParameters[name]?.kind
        case .query(let name): context.query[name]?.kind
        case .nowEpoch, .counter: .integer
        default: nil
        }
        return kind == .integer || kind == .number || kind == .boolean ? kind : nil
    }

}

extension ResponseTemplate {
    /// A value inserted bare (a typed parameter, `now.epoch`, `counter`) must stand alone between JSON
    /// punctuation or white space: one sample cannot show that `-{{path.id}}` renders `--5` for `-5`, or
    /// that two values side by side run together.
    func checkBareValuesStandAlone() throws(Problem) {
        guard isJSON else { return }
        for (index, piece) in pieces.enumerated() {
            guard case .placeholder(let placeholder) = piece, placeholder.insertion == .raw else { continue }
            // What touches the value on each side: a byte of literal text, another placeholder, or nothing.
            let neighbours: [(piece: Piece?, side: String, byte: ([UInt8]) -> UInt8?)] = [
                (index > 0 ? pieces[index - 1] : nil, "before", { $0.last }),
                (index + 1 < pieces.count ? pieces[index + 1] : nil, "after", { $0.first }),
            ]
            for neighbour in neighbours {
                let found: String
                switch neighbour.piece {
                case .literal(let bytes)?:
                    guard let byte = neighbour.byte(bytes), !Self.separates(byte) else { continue }
                    found = "\"" + String(decoding: [byte], as: UTF8.self) + "\""
                case .placeholder?:
                    found = "another placeholder"
                case nil:
                    continue
                }
                throw Problem(line: placeholder.line, column: placeholder.column,
                              message: "\(placeholder.text) is inserted as a bare JSON value, so it must stand alone "
                                  + "between JSON punctuation or white space; found \(found) \(neighbour.side) it")
            }
        }
    }

    /// JSON white space and the structural characters `[ ] { } , :`.
    private static func separates(_ byte: UInt8) -> Bool {
        " \t\r\n[]{},:".utf8.contains(byte)
    }

    /// Fills a JSON template with sample values (1, 1.5, true, "x", null for bodies) and reads the
    /// result, so a fixture that cannot render valid JSON fails at load; the reader's position is
    /// mapped back to the fixture.
    func checkJSONShape(of bytes: [UInt8], pieceStarts: [Int], context: Context) throws(Problem) {
        var sample: [UInt8] = []
        var sampleStarts: [Int] = []
        for piece in pieces {
            sampleStarts.append(sample.count)
            switch piece {
            case .literal(let literal): sample.append(contentsOf: literal)
            case .placeholder(let placeholder): sample.append(contentsOf: Self.sample(for: placeholder, context).utf8)
            }
        }
        do {
            _ = try JSONValue.parse(sample)
        } catch {
            let offset = Self.offset(line: error.line, column: error.column, in: sample)
            var fixtureOffset = 0
            if let piece = sampleStarts.lastIndex(where: { $0 <= offset }) {
                switch pieces[piece] {
                case .literal: fixtureOffset = pieceStarts[piece] + offset - sampleStarts[piece]
                case .placeholder: fixtureOffset = pieceStarts[piece]
                }
            }
            var line = 1
            var lineStart = 0
            for index in 0..<min(fixtureOffset, bytes.count) where bytes[index] == Self.newline {
                line += 1
                lineStart = index + 1
            }
            throw Problem(line: line, column: fixtureOffset - lineStart + 1,
                          message: "the template is not valid JSON once filled in: \(error.reason)")
        }
    }

    private static func sample(for placeholder: Placeholder, _ context: Context) -> String {
        switch placeholder.insertion {
        case .jsonEscaped: "x"
        case .jsonQuoted: "\"x\""
        case .jsonValue: "null"
        case .raw:
            switch placeholder.source.typedKind(in: context) {
            case _ where placeholder.source == .nowEpoch: "0"
            case .number: "1.5"
            case .boolean: "true"
            default: "1"
            }
        }
    }

    /// The byte offset of a 1-based line and byte column.
    private static func offset(line: Int, column: Int, in bytes: [UInt8]) -> Int {
        var lineStart = 0
        var remaining = line - 1
        for (index, byte) in bytes.enumerated() where remaining > 0 && byte == newline {
            remaining -= 1
            lineStart = index + 1
        }
        return lineStart + column - 1
    }
}
