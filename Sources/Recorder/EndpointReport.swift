/// What the recorder decided for one endpoint, for the report a flush prints: never a value of a request or
/// a response, only names and counts.
public struct EndpointReport: Sendable, Equatable, Encodable {
    public var id = ""
    public var method: String
    public var path: String
    /// The path parameters that stand for ids (`id`, `userId`).
    public var templated: [String]
    /// `when` rules written, over all its scenarios.
    public var rules = 0
    /// Each sequence written, and why.
    public var sequences: [String] = []
    /// `bearer` when requests without credentials were refused and the others sent a bearer token;
    /// `Authorization present` for another scheme; `nil` when answers did not turn on credentials.
    public var auth: String?

    init(method: String, path: String, templated: [String]) {
        self.method = method
        self.path = path
        self.templated = templated
    }

    /// One line: `getV2Books GET /v2/books: 2 rules, auth bearer`.
    public var line: String {
        var parts: [String] = []
        if !templated.isEmpty { parts.append("ids " + templated.map { "{\($0)}" }.joined(separator: ", ")) }
        if rules > 0 { parts.append("\(rules) when rule\(rules == 1 ? "" : "s")") }
        if let auth { parts.append("auth " + auth) }
        parts += sequences.map { "sequence " + $0 }
        return "\(id) \(method) \(path)" + (parts.isEmpty ? ": one answer" : ": " + parts.joined(separator: "; "))
    }
}
