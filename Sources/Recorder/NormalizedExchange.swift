import ContractModel
import HTTPCore

/// A recorded exchange reduced to what a contract can say about it, secrets already gone: the method,
/// the path's decoded segments, the query's names and values, the request body's fields, whether it
/// carried a bearer token, and the response as a ``RecordedOutcome``.
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
        let (contentType, kept) = headers.responseFields(exchange.responseHeaders)
        outcome = RecordedOutcome(
            status: exchange.status, headers: kept, contentType: contentType,
            body: FixtureBody(bytes: exchange.responseBody, contentType: contentType, redactor: redactor))
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
