import ContractModel
import HTTPCore

/// Checks a request body's media type and fields against a contract's body requirement.
enum BodyValidator {
    static func validate(_ request: HTTPRequest, against requirement: BodyRequirement) -> [String] {
        let contentType = request.headers["content-type"] ?? ""
        let mediaType = mediaType(of: contentType)
        switch requirement.kind {
        case .json:
            guard mediaType == "application/json" else { return [mismatch("application/json", contentType)] }
            return validateJSON(request.body, fields: requirement.fields)
        case .form:
            guard mediaType == "application/x-www-form-urlencoded" else {
                return [mismatch("application/x-www-form-urlencoded", contentType)]
            }
            return validateForm(request.body, fields: requirement.fields)
        case .multipart:
            guard mediaType == "multipart/form-data" else { return [mismatch("multipart/form-data", contentType)] }
            guard let boundary = parameter("boundary", in: contentType) else {
                return ["header Content-Type: multipart/form-data needs a boundary parameter"]
            }
            return validateMultipart(request.body, boundary: boundary, fields: requirement.fields)
        }
    }

    /// The media type of a `Content-Type` value, lower-cased, without parameters.
    static func mediaType(of contentType: String) -> String {
        contentType.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
    }

    private static func mismatch(_ expected: String, _ found: String) -> String {
        "header Content-Type: expected \(expected), found \(found.isEmpty ? "none" : "\"\(found)\"")"
    }

    private static func validateJSON(_ body: [UInt8], fields: [String: FieldType]) -> [String] {
        guard !body.isEmpty else { return ["body is empty; a JSON object is required"] }
        guard let document = try? JSONValue.parse(body) else { return ["body is not valid JSON"] }
        guard case .object(let object) = document else {
            return ["body must be a JSON object, found \(document.typeName)"]
        }
        var violations: [String] = []
        for (name, type) in fields.sorted(by: { $0.key < $1.key }) {
            guard let value = object[name] else {
                if !type.isOptional { violations.append("body field \(name) is missing") }
                continue
            }
            if !type.accepts(json: value) {
                violations.append("body field \(name): \(value.typeName) is not \(RequestValidator.article(type))")
            }
        }
        return violations
    }

    private static func validateForm(_ body: [UInt8], fields: [String: FieldType]) -> [String] {
        let text = String(decoding: body.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        guard let items = PercentDecoding.queryItems(Substring(text)) else {
            return ["form body has a malformed percent-escape"]
        }
        var violations: [String] = []
        RequestValidator.check(fields: Route.sorted(fields), value: { name in items.first { $0.name == name }?.value },
                               what: "form field", into: &violations)
        return violations
    }

    private static func validateMultipart(_ body: [UInt8], boundary: String, fields: [String: FieldType])
        -> [String]
    {
        guard let parts = MultipartReader.parts(of: body, boundary: boundary) else {
            return ["multipart body is malformed or not closed with --\(boundary)--"]
        }
        var violations: [String] = []
        for (name, type) in fields.sorted(by: { $0.key < $1.key }) {
            let matching = parts.filter { $0.name == name }
            guard !matching.isEmpty else {
                if !type.isOptional { violations.append("multipart part \(name) is missing") }
                continue
            }
            for part in matching {
                switch type.kind {
                case .file where part.fileName == nil:
                    violations.append("multipart part \(name) must be a file (with a filename)")
                case .json where (try? JSONValue.parse(part.body)) == nil:
                    violations.append("multipart part \(name) is not valid JSON")
                case .integer, .number, .boolean:
                    if !type.accepts(text: String(decoding: part.body, as: UTF8.self)) {
                        violations.append("multipart part \(name) is not \(RequestValidator.article(type))")
                    }
                default:
                    break
                }
            }
        }
        return violations
    }

    /// The value of a `name=value` parameter of a header (RFC 9110 §5.6.6), unquoted; `;` and `\"`
    /// inside a quoted value are part of it.
    static func parameter(_ name: String, in header: String) -> String? {
        for part in splitParameters(header).dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == name else { continue }
            let value = unquote(pair[1].trimmingSpaces())
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// `header` split at the semicolons that are not inside a quoted string.
    private static func splitParameters(_ header: String) -> [Substring] {
        var parts: [Substring] = []
        var start = header.startIndex
        var quoted = false
        var escaped = false
        for index in header.indices {
            let character = header[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";" && !quoted {
                parts.append(header[start..<index])
                start = header.index(after: index)
            }
        }
        parts.append(header[start...])
        return parts
    }

    /// A quoted string's content with its escapes resolved; other text as it is.
    private static func unquote(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        var result = ""
        var escaped = false
        for character in value.dropFirst().dropLast() {
            if !escaped && character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}

/// Splits a multipart/form-data body into its parts (RFC 7578, RFC 2046 §5.1.1).
enum MultipartReader {
    struct Part {
        let name: String?
        let fileName: String?
        let body: ArraySlice<UInt8>
    }

    /// The parts, or `nil` when the body does not follow the boundary structure. A delimiter is
    /// `--boundary` at the start of the body or of a line, then optional spaces or tabs and CRLF (or `--`
    /// for the close delimiter); text before the first and after the close delimiter is ignored.
    static func parts(of body: [UInt8], boundary: String) -> [Part]? {
        let dashBoundary = Array(("--" + boundary).utf8)
        let lineDelimiter = [13, 10] + dashBoundary
        var parts: [Part] = []
        // The first delimiter may open the body; every other one follows a CRLF, which belongs to it.
        var candidate = body.starts(with: dashBoundary) ? 0 : find(lineDelimiter, in: body, from: 0).map { $0 + 2 }
        var partStart: Int?
        while let delimiter = candidate {
            var index = delimiter + dashBoundary.count
            let closes = body.count >= index + 2 && body[index] == UInt8(ascii: "-") && body[index + 1] == UInt8(ascii: "-")
            if closes { index += 2 }
            while index < body.count && (body[index] == 32 || body[index] == 9) { index += 1 }
            let endsLine = body.count >= index + 2 && body[index] == 13 && body[index + 1] == 10
            guard endsLine || (closes && index == body.count) else {
                // `--boundary` followed by other text is content, not a delimiter.
                candidate = find(lineDelimiter, in: body, from: delimiter + 1).map { $0 + 2 }
                continue
            }
            if let start = partStart {
                guard let part = parsePart(body[start..<(delimiter - 2)]) else { return nil }
                parts.append(part)
            }
            if closes { return parts }
            partStart = index + 2
            candidate = find(lineDelimiter, in: body, from: index).map { $0 + 2 }
        }
        return nil
    }

    private static func parsePart(_ bytes: ArraySlice<UInt8>) -> Part? {
        let separator: [UInt8] = [13, 10, 13, 10]
        let headerEnd: Int
        let bodyStart: Int
        if bytes.starts(with: [13, 10]) {
            headerEnd = bytes.startIndex
            bodyStart = bytes.startIndex + 2
        } else {
            guard let end = find(separator, in: Array(bytes), from: 0) else { return nil }
            headerEnd = bytes.startIndex + end
            bodyStart = headerEnd + 4
        }
        let headerText = String(decoding: bytes[bytes.startIndex..<headerEnd], as: UTF8.self)
        var name: String?
        var fileName: String?
        for line in headerText.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == "content-disposition" else { continue }
            let value = String(pair[1])
            name = BodyValidator.parameter("name", in: value)
            fileName = BodyValidator.parameter("filename", in: value)
        }
        return Part(name: name, fileName: fileName, body: bytes[bodyStart...])
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = start
        let lastStart = haystack.count - needle.count
        while index <= lastStart {
            if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
