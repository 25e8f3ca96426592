import ContractModel
import HTTPCore
import MockProtocol

/// A recorded exchange reduced to what a contract can say about it, secrets already gone: the method,
/// the path's decoded segments, the query's names and values, the request body's fields, what a `when` rule
/// could tell it apart by, whether it carried credentials, how long the response head took, and the response
/// as a ``RecordedOutcome``.
struct NormalizedExchange {
    /// The request body as far as a contract declares it.
    enum RequestBody {
        case none
        case json([String: JSONValue])
        case form([(name: String, value: String)])
        /// A body a contract does not describe field by field (multipart, text, bytes, a JSON array).
        case other
    }

    /// The exchange's position in the recording: scenarios replay in this order.
    let order: Int
    let method: String
    let segments: [String]
    let query: [(name: String, value: String)]
    let requestBody: RequestBody
    let hasBearerToken: Bool
    /// Whether it carried `Authorization` of any scheme (the value is never kept).
    let hasCredentials: Bool
    /// What a `when` rule may read of it besides the path (see ``ruleFacts(_:redactor:headers:)``).
    let facts: [RuleCondition.Source: JSONValue]
    /// Milliseconds from the request sent to the response head read, when measured.
    let headMs: Double?
    let outcome: RecordedOutcome

    /// The methods a contract can declare.
    static let methods: Set = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// Why an exchange cannot be written, for ``RecordingWriter/Summary/skipped``.
    struct Rejection: Error {
        let reason: String
    }

    init(_ exchange: RecordedExchange, order: Int, headers: HeaderFilter, redactor: SecretRedactor) throws(Rejection) {
        let target = "\(exchange.method) \(exchange.path)"
        guard Self.methods.contains(exchange.method) else {
            throw Rejection(reason: "\(target): a contract's method is one of "
                + Self.methods.sorted().joined(separator: ", "))
        }
        guard exchange.path.hasPrefix("/"), let segments = PercentDecoding.segments(of: Substring(exchange.path)) else {
            throw Rejection(reason: "\(target): the path is not an origin-form path (it must start with /)")
        }
        guard segments.allSatisfy({ !$0.contains("/") && !$0.contains("{") && !$0.contains("}") }) else {
            throw Rejection(reason: "\(target): a segment holds /, { or }, which a path template cannot match")
        }
        // A compressed body cannot be searched for secrets, nor would a fixture replay it as sent. The recorder
        // asks the backend for `identity`; a backend that compresses anyway is not recorded.
        if let coding = exchange.responseHeaders.first(where: { HTTPHeaders.equal($0.name, "Content-Encoding") })?.value,
           !HTTPHeaders.equal(coding.trimmingSpaces(), "identity") {
            throw Rejection(reason: "\(target): the body came \(coding)-encoded, which cannot be checked for secrets; "
                + "not recorded")
        }
        guard (200...599).contains(exchange.status) else {
            throw Rejection(reason: "\(target): status \(exchange.status) is outside the 200…599 a scenario can answer")
        }
        self.order = order
        method = exchange.method
        self.segments = segments
        query = exchange.query.flatMap { PercentDecoding.queryItems(Substring($0)) } ?? []
        requestBody = Self.requestBody(exchange)
        hasBearerToken = HeaderFilter.hasBearerToken(exchange.requestHeaders)
        hasCredentials = exchange.requestHeaders.contains { HTTPHeaders.equal($0.name, "Authorization") }
        facts = Self.ruleFacts(query: query, body: requestBody, fields: exchange.requestHeaders, redactor: redactor,
                               headers: headers)
        headMs = exchange.headMs
        let (contentType, kept) = headers.responseFields(exchange.responseHeaders)
        outcome = RecordedOutcome(
            status: exchange.status, headers: kept, contentType: contentType,
            body: FixtureBody(bytes: exchange.responseBody, contentType: contentType, redactor: redactor))
    }

    /// Header fields that say what a client asks for, and so may pick an answer; the others (`Host`, `User-Agent`,
    /// tracing and forwarding fields) are left to no rule.
    private static let askingFields: Set<String> = [
        "accept", "accept-language", "prefer", "if-none-match", "if-match", "if-modified-since", "if-unmodified-since",
    ]
    /// Words that make an `X-` field a credential or a per-client value whatever else its name says (`X-Session`,
    /// `X-Auth-Key`, `X-Signature`): never a rule's fact, so never written.
    private static let privateWords = ["session", "auth", "sig", "key", "nonce", "csrf", "device"]
    /// `X-` fields that differ on every request or name a hop, never what is asked.
    private static let noiseFields: Set<String> = [
        "x-request-id", "x-correlation-id", "x-amzn-trace-id", "x-b3-traceid", "x-b3-spanid", "x-cloud-trace-context",
        "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip",
    ]

    /// The query's values, a JSON body's top-level scalar members or a form's fields (`/name`), header fields a
    /// client asks with (``askingFields``, and `X-` fields but noise and the mock's own), and `Authorization`'s
    /// presence (its value never). Nothing whose name is a secret.
    private static func ruleFacts(query: [(name: String, value: String)], body: RequestBody,
                                  fields: [RecordedExchange.Field], redactor: SecretRedactor,
                                  headers: HeaderFilter) -> [RuleCondition.Source: JSONValue] {
        var facts: [RuleCondition.Source: JSONValue] = [:]
        for item in query where !redactor.isSecret(item.name) && facts[.query(item.name)] == nil {
            facts[.query(item.name)] = .string(item.value)
        }
        switch body {
        case .json(let members):
            for (name, value) in members where !redactor.isSecret(name) {
                switch value {
                case .string, .number, .bool: facts[.body(pointer: JSONValue.pointer(toMember: name))] = value
                case .null, .array, .object: break
                }
            }
        case .form(let items):
            for item in items where !redactor.isSecret(item.name) && facts[.body(pointer: JSONValue.pointer(toMember: item.name))] == nil {
                facts[.body(pointer: JSONValue.pointer(toMember: item.name))] = .string(item.value)
            }
        case .none, .other:
            break
        }
        for field in fields {
            let name = field.name.lowercased()
            if name == "authorization" { facts[.header(name)] = .bool(true); continue }
            let asks = askingFields.contains(name)
                || (name.hasPrefix("x-") && !noiseFields.contains(name) && !MockHeader.isMockField(name)
                    && !privateWords.contains { name.contains($0) })
            guard asks, !headers.isSecret(name), !redactor.isSecret(name), facts[.header(name)] == nil else { continue }
            facts[.header(name)] = .string(field.value.trimmed(of: " \t"))
        }
        return facts
    }

    private static func requestBody(_ exchange: RecordedExchange) -> RequestBody {
        guard !exchange.requestBody.isEmpty else { return .none }
        switch FixtureBody.mediaType(HeaderFilter.contentType(exchange.requestHeaders)) {
        case "application/json":
            if case .object(let members)? = try? JSONValue.parse(exchange.requestBody) { return .json(members) }
            return .other
        case "application/x-www-form-urlencoded":
            let text = String(decoding: exchange.requestBody.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 },
                              as: UTF8.self)
            return PercentDecoding.queryItems(Substring(text)).map(RequestBody.form) ?? .other
        default:
            return .other
        }
    }
}
