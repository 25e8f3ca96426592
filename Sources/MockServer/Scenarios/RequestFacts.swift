import ContractModel
import HTTPCore

/// What `when` rules read of one request, each part read once and only when a rule asks for it: the query
/// parsed, the cookies split, the body parsed as JSON or as a form. Made per request only for an endpoint with
/// rules; a request to any other endpoint never makes one.
final class RequestFacts {
    private let request: HTTPRequest
    private let parameters: [String: String]

    init(_ request: HTTPRequest, parameters: [String: String]) {
        self.request = request
        self.parameters = parameters
    }

    /// A part's value: text (query, header, path parameter, cookie, form field) or a JSON body's value; `nil` when
    /// the request does not have it.
    enum Value {
        case text(String)
        case json(JSONValue)
    }

    func value(of source: RuleCondition.Source) -> Value? {
        switch source {
        case .query(let name):
            return query.first { $0.name == name }.map { .text($0.value) }
        case .header(let name):
            let values = request.headers.filter { HTTPHeaders.equal($0.name, name) }.map(\.value)
            return values.isEmpty ? nil : .text(values.joined(separator: ", "))
        case .pathParameter(let name):
            return parameters[name].map(Value.text)
        case .cookie(let name):
            return cookies.first { $0.name == name }.map { .text($0.value) }
        case .body(let pointer):
            switch body {
            case .json(let document): return document.value(at: pointer).map(Value.json)
            case .form(let fields):
                let name = String(pointer.dropFirst())
                return fields.first { $0.name == name }.map { .text($0.value) }
            case .none: return nil
            }
        }
    }

    private lazy var query: [(name: String, value: String)] = request.queryItems ?? []

    /// `Cookie: a=1; b=2` as pairs (RFC 6265 §5.4), every `Cookie` field of the request.
    private lazy var cookies: [(name: String, value: String)] = request.headers
        .filter { HTTPHeaders.equal($0.name, "Cookie") }
        .flatMap { $0.value.split(separator: ";") }
        .compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            let name = pair[..<equals].trimmingSpaces()
            var value = pair[pair.index(after: equals)...].trimmingSpaces()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return (name, value)
        }

    private enum Body {
        case json(JSONValue)
        case form([(name: String, value: String)])
        case none
    }

    /// The body as its `Content-Type` says: JSON (`application/json`, `+json`) or a form
    /// (`application/x-www-form-urlencoded`); anything else, or a body that does not parse, has no values.
    private lazy var body: Body = {
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
    }()
}
