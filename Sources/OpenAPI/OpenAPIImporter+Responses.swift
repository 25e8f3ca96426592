import ContractModel

extension OpenAPIImporter {
    /// An operation's scenarios, its content type and the fixtures written for them.
    struct Responses {
        var scenarios: [JSONValue] = []
        var contentType = "application/json"
        var fixtures: [String] = []
    }

    /// One scenario per documented response, one per named example: status, `expect` by the status class,
    /// body from the example or made from the schema, headers from the response's header examples.
    /// `default` becomes a 500; 1xx responses are left out (reported).
    mutating func scenarios(_ operation: [String: JSONValue], endpointID: String, domain: String,
                            at pointer: String) throws(OpenAPIImportError) -> Responses {
        let responsesPointer = Pointer.appending(pointer, "responses")
        guard let responses = operation["responses"]?.objectValue else {
            throw .at(file, responsesPointer, "an operation needs responses")
        }
        var result = Responses()
        var names: Set<String> = []
        var contentTypeChosen = false
        for (code, response) in responses.sorted(by: { Self.order($0.key) < Self.order($1.key) }) {
            guard !code.hasPrefix("x-") else { continue }
            let at = Pointer.appending(responsesPointer, code)
            guard let status = Self.status(of: code) else {
                throw .at(file, at, "\"\(code)\" is not a status code, a range such as 4XX, or default")
            }
            guard status >= 200 else {
                plan.report.skip(file, at, "informational responses (1xx) are not mocked")
                continue
            }
            let (resolved, location) = try document.resolve(response, at: at)
            if resolved["links"] != nil {
                plan.report.skip(file, Pointer.appending(location, "links"), "links are not mocked")
            }
            let headers = try responseHeaders(resolved, at: location)
            let base = code == "default" ? "default" : Int(code).map(ImportNames.scenario(status:)) ?? "status\(code)"
            let description = resolved["description"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            var common: [String: JSONValue] = ["status": .integer(status), "expect": .string(Self.expectation(status))]
            if !headers.isEmpty { common["headers"] = .object(headers) }
            guard let (documented, media) = chooseMedia(resolved, at: location) else {
                let name = ImportNames.unique(base, in: names)
                names.insert(name)
                var scenario = common
                scenario["name"] = .string(name)
                if let description { scenario["description"] = .string(description) }
                result.scenarios.append(.object(scenario))
                continue
            }
            let mediaPointer = Pointer.appending(Pointer.appending(location, "content"), documented)
            let examples = try examples(of: media, at: mediaPointer)
            let mediaType = try servedType(documented, media: media, examples: examples.compactMap(\.value),
                                           at: mediaPointer)
            if !contentTypeChosen {
                result.contentType = mediaType
                contentTypeChosen = true
            }
            for example in examples {
                let name = ImportNames.unique(example.key.map { base + "-" + ImportNames.word($0) } ?? base, in: names)
                names.insert(name)
                var scenario = common
                scenario["name"] = .string(name)
                if let summary = example.summary ?? description { scenario["description"] = .string(summary) }
                if mediaType != result.contentType { scenario["contentType"] = .string(mediaType) }
                if let value = example.value {
                    let path = ImportNames.slug(domain) + "/" + ImportNames.word(endpointID) + "/" + name + "."
                        + ImportNames.fileExtension(for: mediaType)
                    plan.fixtures[path] = fixtureBytes(value, mediaType: mediaType, at: example.pointer)
                    result.fixtures.append(path)
                    scenario["body"] = .string(path)
                }
                result.scenarios.append(.object(scenario))
            }
        }
        return result
    }

    /// Numeric codes first, then ranges, then `default`.
    private static func order(_ code: String) -> (Int, String) {
        if let number = Int(code) { return (0, String(format6(number))) }
        return code == "default" ? (2, code) : (1, code)
    }

    private static func format6(_ number: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }

    /// The status a response code stands for: itself, `2XX` → 200, `default` → 500.
    static func status(of code: String) -> Int? {
        if code == "default" { return 500 }
        if let number = Int(code), (100...599).contains(number) { return number }
        let upper = code.uppercased()
        if upper.count == 3, upper.hasSuffix("XX"), let digit = Int(upper.prefix(1)), (1...5).contains(digit) {
            return digit * 100
        }
        return nil
    }

    /// The client result a status maps to (DESIGN.md §3).
    static func expectation(_ status: Int) -> String {
        switch status {
        case 200...299: "success"
        case 400...499: "requestErr"
        case 500...599: "serverErr"
        default: "networkFail"
        }
    }

    /// JSON first, then text, then the first other media type; the rest are reported.
    private mutating func chooseMedia(_ response: JSONValue, at pointer: String) -> (String, JSONValue)? {
        guard let content = response["content"]?.objectValue, !content.isEmpty else { return nil }
        let sorted = content.keys.sorted()
        let chosen = sorted.first(where: MediaType.isJSON) ?? sorted.first(where: MediaType.isText) ?? sorted[0]
        for other in sorted where other != chosen {
            plan.report.skip(file, Pointer.appending(Pointer.appending(pointer, "content"), other),
                             "the mock answers \(chosen) only")
        }
        return content[chosen].map { (chosen, $0) }
    }

    /// The `Content-Type` to answer with: the documented media type, or for a range (`*/*`, `application/*`,
    /// as springdoc writes) `application/json` when the body is an object or array, else `text/plain`.
    private mutating func servedType(_ documented: String, media: JSONValue, examples: [JSONValue],
                                     at pointer: String) throws(OpenAPIImportError) -> String {
        guard documented.contains("*") else { return documented }
        var structured = examples.contains { $0.objectValue != nil || $0.arrayValue != nil }
        if examples.isEmpty, let schema = media["schema"] {
            let (resolved, _) = try document.resolve(schema, at: Pointer.appending(pointer, "schema"))
            structured = ["object", "array", nil].contains(SchemaExample.type(of: resolved.objectValue ?? [:]))
        }
        let served = structured ? "application/json" : "text/plain"
        plan.report.skip(file, pointer, "the range \(documented) is answered as \(served)")
        return served
    }

    /// A response's example bodies: each named example, else the example, else one made from the schema;
    /// `value` nil for an empty body.
    private mutating func examples(of media: JSONValue, at pointer: String) throws(OpenAPIImportError)
        -> [(key: String?, value: JSONValue?, summary: String?, pointer: String)]
    {
        if let named = media["examples"]?.objectValue, !named.isEmpty {
            var result: [(key: String?, value: JSONValue?, summary: String?, pointer: String)] = []
            for (key, example) in named.sorted(by: { $0.key < $1.key }) {
                let at = Pointer.appending(Pointer.appending(pointer, "examples"), key)
                let (resolved, location) = try document.resolve(example, at: at)
                var value = resolved["value"]
                if value == nil {
                    if resolved["externalValue"] != nil {
                        plan.report.skip(file, Pointer.appending(location, "externalValue"),
                                         "external example values are not fetched; the body is made from the schema")
                    }
                    value = try schemaValue(media, at: pointer)
                }
                result.append((named.count == 1 ? nil : key, value, resolved["summary"]?.stringValue, location))
            }
            return result
        }
        if let example = media["example"] {
            return [(nil, example, nil, Pointer.appending(pointer, "example"))]
        }
        return [(nil, try schemaValue(media, at: pointer), nil, Pointer.appending(pointer, "schema"))]
    }

    private func schemaValue(_ media: JSONValue, at pointer: String) throws(OpenAPIImportError) -> JSONValue? {
        guard let schema = media["schema"] else { return nil }
        return try SchemaExample(document: document).value(for: schema, at: Pointer.appending(pointer, "schema"))
    }

    /// The fixture's bytes: indented JSON for a JSON media type, a string's text for any other.
    private mutating func fixtureBytes(_ value: JSONValue, mediaType: String, at pointer: String) -> [UInt8] {
        if MediaType.isJSON(mediaType) { return value.prettyPrinted() }
        if case .string(let text) = value { return Array(text.utf8) }
        plan.report.skip(file, pointer, "a \(value.typeName) example for \(mediaType) is written as JSON text")
        return value.prettyPrinted()
    }

    /// Response headers with a value: from their example, else made from their schema.
    private mutating func responseHeaders(_ response: JSONValue, at pointer: String) throws(OpenAPIImportError)
        -> [String: JSONValue]
    {
        var headers: [String: JSONValue] = [:]
        let skipped: Set = ["content-type", "content-length", "transfer-encoding", "connection", "date"]
        for (name, header) in response["headers"]?.objectValue ?? [:] {
            let at = Pointer.appending(Pointer.appending(pointer, "headers"), name)
            guard !skipped.contains(name.lowercased()) else { continue }
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                plan.report.skip(file, at, "\"\(name)\" is not a valid header name")
                continue
            }
            let (resolved, location) = try document.resolve(header, at: at)
            var value = resolved["example"] ?? resolved["examples"]?.objectValue?.sorted(by: { $0.key < $1.key }).first?
                .value["value"]
            if value == nil, let schema = resolved["schema"] {
                value = try SchemaExample(document: document).value(for: schema, at: Pointer.appending(location, "schema"))
            }
            let text: String
            switch value {
            case .string(let string)?: text = string
            case .number(let number)?: text = JSONValue.text(of: number)
            case .bool(let flag)?: text = flag ? "true" : "false"
            default: continue
            }
            guard !text.utf8.contains(where: { ($0 < 0x20 && $0 != 9) || $0 == 0x7F }) else {
                plan.report.skip(file, location, "the example value has control characters; header left out")
                continue
            }
            headers[name] = .string(text)
        }
        return headers
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
