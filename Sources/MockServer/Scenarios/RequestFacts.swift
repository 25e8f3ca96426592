import ContractModel
import HTTPCore

/// What an endpoint's `when` rules read of one request: the value of each part its rules name
/// (``Route/ruleSources``), each looked up once, when the request arrives, however many conditions read it.
/// The query is parsed, the cookies split and the body parsed (as JSON or as a form) only when a rule names one
/// of them; a request to an endpoint without rules makes none of this.
struct RequestFacts {
    /// A part's value: text (query, header, path parameter, cookie, form field) or a JSON body's value.
    enum Value {
        case text(String)
        case json(JSONValue)
    }

    /// By the route's slot; `nil` where the request does not have the part.
    private let values: [Value?]

    init(_ request: HTTPRequest, parameters: [String: String], sources: [RuleCondition.Source]) {
        var reader = Reader(request: request, parameters: parameters)
        values = sources.map { reader.value(of: $0) }
    }

    /// The value of the route's part number `slot`.
    func value(at slot: Int) -> Value? { values[slot] }

    /// Reads the parts, parsing the query, cookies and body the first time one of them is asked for.
    private struct Reader {
        let request: HTTPRequest
        let parameters: [String: String]
        private var query: [(name: String, value: String)]?
        private var cookies: [(name: String, value: String)]?
        private var body: Body?

        init(request: HTTPRequest, parameters: [String: String]) {
            self.request = request
            self.parameters = parameters
        }

        mutating func value(of source: RuleCondition.Source) -> Value? {
            switch source {
            case .query(let name):
                if query == nil { query = request.queryItems ?? [] }
                return query?.first { $0.name == name }.map { .text($0.value) }
            case .header(let name):
                let values = request.headers.filter { HTTPHeaders.equal($0.name, name) }.map(\.value)
                return values.isEmpty ? nil : .text(values.joined(separator: ", "))
            case .pathParameter(let name):
                return parameters[name].map(Value.text)
            case .cookie(let name):
                if cookies == nil { cookies = Self.cookies(of: request) }
                return cookies?.first { $0.name == name }.map { .text($0.value) }
            case .body(let pointer):
                if body == nil { body = Self.body(of: request) }
                switch body {
                case .json(let document)?: return document.value(at: pointer).map(Value.json)
                case .form(let fields)?:
                    guard let name = RuleCondition.Source.formField(of: pointer) else { return nil }
                    return fields.first { $0.name == name }.map { .text($0.value) }
                case .none?, nil: return nil
                }
            }
        }

        /// `Cookie: a=1; b=2` as pairs (RFC 6265 §5.4), every `Cookie` field of the request.
        private static func cookies(of request: HTTPRequest) -> [(name: String, value: String)] {
            request.headers
                .filter { HTTPHeaders.equal($0.name, "Cookie") }
                .flatMap { $0.value.split(separator: ";") }
                .compactMap { pair in
                    guard let equals = pair.firstIndex(of: "=") else { return nil }
                    let name = pair[..<equals].trimmingSpaces()
                    var value = pair[pair.index(after: equals)...].trimmingSpaces()
                    if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                        value = String(value.dropFirst().dropLast())
                    }
                    return (name, value)
                }
        }

        private enum Body {
            case json(JSONValue)
            case form([(name: String, value: String)])
            case none
        }

        /// The body as its `Content-Type` says: JSON (`application/json`, `+json`, or none given) or a form
        /// (`application/x-www-form-urlencoded`); anything else, or a body that does not parse, has no values.
        private static func body(of request: HTTPRequest) -> Body {
            let type = (request.headers["Content-Type"] ?? "").lowercased()
            if type.hasPrefix("application/x-www-form-urlencoded") {
                // In a form, `+` is a space (the query keeps it a plus sign).
                let bytes = request.body.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
                return bytes.withUnsafeBufferPointer(PercentDecoding.queryItems).map(Body.form) ?? .none
            }
            if type.isEmpty || type.contains("json") {
                return (try? JSONValue.parse(request.body)).map(Body.json) ?? .none
            }
            return .none
        }
    }
}
