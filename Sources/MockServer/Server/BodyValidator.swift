import ContractModel
import HTTPCore

/// Checks a request body's media type and fields against a contract's body requirement.
enum BodyValidator {
    static func validate(_ request: HTTPRequest, against requirement: BodyRequirement) -> [String] {
        let contentType = request.headers["content-type"] ?? ""
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
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

    /// The value of a `name=value` parameter of a header, unquoted.
    static func parameter(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == name else { continue }
            var value = pair[1].trimmingSpaces()
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}

/// Splits a multipart/form-data body into its parts (RFC 7578, RFC 2046 §5.1.1).
enum MultipartReader {
    struct Part {
        let name: String?
        let fileName: String?
        let body: ArraySlice<UInt8>
    }

    /// The parts, or `nil` when the body does not follow the boundary structure.
    static func parts(of body: [UInt8], boundary: String) -> [Part]? {
        let delimiter = Array(("--" + boundary).utf8)
        var positions: [Int] = []
        var index = 0
        while let found = find(delimiter, in: body, from: index) {
            positions.append(found)
            index = found + delimiter.count
        }
        guard let last = positions.last, body.count >= last + delimiter.count + 2,
              body[last + delimiter.count] == UInt8(ascii: "-"), body[last + delimiter.count + 1] == UInt8(ascii: "-")
        else { return nil }
        var parts: [Part] = []
        for (start, end) in zip(positions, positions.dropFirst()) {
            var partStart = start + delimiter.count
            guard body.count > partStart + 1, body[partStart] == 13, body[partStart + 1] == 10 else { return nil }
            partStart += 2
            var partEnd = end
            if partEnd >= 2 && body[partEnd - 2] == 13 && body[partEnd - 1] == 10 { partEnd -= 2 }
            guard partEnd >= partStart else { return nil }
            guard let part = parsePart(body[partStart..<partEnd]) else { return nil }
            parts.append(part)
        }
        return parts
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
