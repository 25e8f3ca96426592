import ContractModel
import HTTPCore

/// What a template may read from one request.
struct TemplateInput {
    var pathParameters: [String: String]
    /// Percent-decoded; the first value of a name wins.
    var query: [(name: String, value: String)]
    /// Looked up case-insensitively.
    var headers: HTTPHeaders
    var body: [UInt8]
    /// The request's `Content-Type`, which tells a JSON body from an `application/x-www-form-urlencoded` one.
    var contentType: String?
    var counter: Int
    var now: (seconds: Int, milliseconds: Int)
}

/// The placeholder of a template that has no value in a request and no default.
struct MissingValue: Error, Equatable {
    /// The placeholder as written, ``ResponseTemplate/Placeholder/text``.
    let placeholder: String
}

/// Fills a ``ResponseTemplate`` from one request.
enum TemplateRenderer {
    /// One pass over the prepared pieces; the only parsing is of the request body, once, and only when
    /// the template reads it.
    /// - Returns: The response body, or the first placeholder with no value and no default.
    static func render(_ template: ResponseTemplate, _ input: TemplateInput) -> Result<[UInt8], MissingValue> {
        var output: [UInt8] = []
        output.reserveCapacity(template.literalByteCount + 128)
        var body = RequestBody(bytes: input.body, contentType: input.contentType)
        for piece in template.pieces {
            switch piece {
            case .literal(let bytes):
                output.append(contentsOf: bytes)
            case .placeholder(let placeholder):
                if let value = value(of: placeholder.source, input, &body),
                   write(value, placeholder.insertion, isJSON: template.isJSON, into: &output) {
                    continue
                }
                guard let fallback = placeholder.fallback else {
                    return .failure(MissingValue(placeholder: placeholder.text))
                }
                if placeholder.insertion == .jsonValue {
                    output.append(contentsOf: fallback.utf8)       // checked to be JSON at load
                } else if !write(.text(fallback), placeholder.insertion, isJSON: template.isJSON, into: &output) {
                    return .failure(MissingValue(placeholder: placeholder.text))
                }
            }
        }
        return .success(output)
    }

    /// The values `template` reads of the request (path, query and header values, in its placeholders' order; `nil`
    /// where the request has none), when it reads nothing else: such a template gives the same bytes for the same
    /// values, so its last rendering can be kept. `nil` for one that reads the body, the time, a UUID or the counter.
    static func requestValues(_ template: ResponseTemplate, _ input: TemplateInput) -> [String?]? {
        var values: [String?] = []
        values.reserveCapacity(template.pieces.count / 2 + 1)
        for piece in template.pieces {
            guard case .placeholder(let placeholder) = piece else { continue }
            switch placeholder.source {
            case .path(let name): values.append(input.pathParameters[name])
            case .query(let name): values.append(input.query.first { $0.name == name }?.value)
            case .header(let name): values.append(input.headers[name])
            case .literal: break
            case .body, .now, .nowEpoch, .uuid, .counter: return nil
            }
        }
        return values
    }

    /// Whether `template` reads nothing but the request's target (path parameters and query values).
    static func readsTargetOnly(_ template: ResponseTemplate) -> Bool {
        template.pieces.allSatisfy { piece in
            guard case .placeholder(let placeholder) = piece else { return true }
            switch placeholder.source {
            case .path, .query, .literal: return true
            case .header, .body, .now, .nowEpoch, .uuid, .counter: return false
            }
        }
    }

    private enum Value {
        case text(String)
        case json(JSONValue)
    }

    private static func value(of source: ResponseTemplate.Source, _ input: TemplateInput, _ body: inout RequestBody)
        -> Value?
    {
        switch source {
        case .path(let name): input.pathParameters[name].map(Value.text)
        case .query(let name): input.query.first { $0.name == name }.map { .text($0.value) }
        case .header(let name): input.headers[name].map(Value.text)
        case .body(let pointer): body.document()?.value(at: pointer).map(Value.json)
        case .now: .text(HTTPDate.iso8601(seconds: input.now.seconds))
        case .nowEpoch: .text(String(input.now.seconds))
        case .uuid: .text(uuid())
        case .counter: .text(String(input.counter))
        case .literal(let text): .text(text)
        }
    }

    /// Appends `value` as `insertion` says; `false`, having appended nothing, when a JSON template needs a
    /// number or boolean and the value is neither.
    private static func write(
        _ value: Value,
        _ insertion: ResponseTemplate.Insertion,
        isJSON: Bool,
        into output: inout [UInt8]
    ) -> Bool {
        switch (insertion, value) {
        case (.jsonValue, .json(let json)):
            json.write(into: &output)
        case (.jsonValue, _), (.jsonQuoted, _):
            JSONValue.quote(text(of: value), into: &output)
        case (.jsonEscaped, _):
            JSONValue.escape(text(of: value), into: &output)
        case (.raw, _) where isJSON:
            guard let scalar = jsonScalar(text(of: value)) else { return false }
            output.append(contentsOf: scalar.utf8)
        case (.raw, _):
            output.append(contentsOf: text(of: value).utf8)
        }
        return true
    }

    /// A value's text: a JSON string's content, or any other JSON value's compact form.
    private static func text(of value: Value) -> String {
        switch value {
        case .text(let text), .json(.string(let text)): text
        case .json(let json): String(decoding: json.serialized, as: UTF8.self)
        }
    }

    /// A request's number or boolean written as JSON (`007` is `7`, `1.50` is `1.5`), or `nil`.
    private static func jsonScalar(_ text: String) -> String? {
        if text == "true" || text == "false" { return text }
        // An integer written plainly is its own JSON: no parse and print on the request path.
        if isPlainInteger(text.utf8) { return text }
        if let integer = Int(text) { return String(integer) }
        if let number = Double(text), number.isFinite { return JSONValue.text(of: number) }
        return nil
    }

    /// Digits without a leading zero (or `0`), after an optional `-`, few enough for an `Int`: what `String(Int(…))`
    /// gives back unchanged.
    private static func isPlainInteger(_ bytes: String.UTF8View) -> Bool {
        var digits = bytes[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return false }
        return digits.count == 1 ? !(bytes.first == UInt8(ascii: "-") && digits.first == UInt8(ascii: "0"))
            : digits.first != UInt8(ascii: "0")
    }

    /// A random version 4 UUID (RFC 9562 §5.4) in lower case, 8-4-4-4-12.
    static func uuid() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = withUnsafeBytes(of: (generator.next() as UInt64, generator.next() as UInt64)) { Array($0) }
        bytes[6] = bytes[6] & 0x0F | 0x40                   // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80                   // variant 10
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// The request body as a document, read on first use: JSON (by its content type, or when it has none),
/// or a form's fields as an object of strings, the first value of each name.
private struct RequestBody {
    private let bytes: [UInt8]
    private let contentType: String?
    private var read: JSONValue??                            // `.some(nil)`: read, and unreadable

    init(bytes: [UInt8], contentType: String?) {
        self.bytes = bytes
        self.contentType = contentType
    }

    mutating func document() -> JSONValue? {
        if let read { return read }
        let document = parse()
        read = .some(document)
        return document
    }

    private func parse() -> JSONValue? {
        let mediaType = BodyValidator.mediaType(of: contentType ?? "")
        if mediaType == "application/x-www-form-urlencoded" { return form() }
        guard mediaType.isEmpty || mediaType.hasSuffix("/json") || mediaType.hasSuffix("+json") else { return nil }
        return try? JSONValue.parse(bytes)
    }

    private func form() -> JSONValue? {
        // A form writes a space as `+`, which query decoding keeps; an escaped `%2B` still decodes to `+`.
        let text = String(decoding: bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        guard let items = PercentDecoding.queryItems(Substring(text)) else { return nil }
        var fields: [String: JSONValue] = [:]
        for item in items where fields[item.name] == nil { fields[item.name] = .string(item.value) }
        return .object(fields)
    }
}
