import ContractModel

/// Contract files as the recorder writes them: indented JSON, keys in the order a person writes a
/// contract (`id`, `method`, `path`… then the rest sorted), names within a map sorted, so the same
/// recording always gives the same bytes.
enum ContractDocument {
    /// Keys first in this order wherever they occur; the rest follow sorted.
    static let keyOrder = [
        "domain", "description", "id", "name", "method", "path", "pathParams", "query", "status", "fault", "sequence",
        "afterLast", "body", "fallback", "template", "contentType", "headers", "auth", "delayMs", "expect",
        "states", "resources", "request", "response", "whenState", "scenarios", "endpoints",
    ]

    /// Keys whose values map names to values: sorted by name, not by ``keyOrder``.
    static let nameMaps: Set<String> = ["pathParams", "query", "headers", "fields", "whenState"]

    /// A new contract of `domain` with `endpoints`, in path then method order.
    static func contract(domain: String, endpoints: [EndpointDraft]) -> JSONValue {
        .object([
            "domain": .string(domain),
            "description": .string("Recorded with mock-server record."),
            "endpoints": .array(endpoints.map(\.json)),
        ])
    }

    /// The file's bytes.
    static func bytes(_ document: JSONValue) -> [UInt8] {
        document.prettyPrinted(keyOrder: keyOrder, plainUnder: nameMaps)
    }

    /// The route a contract endpoint's path stands for, parameter names aside: `GET /v1/items/{}`.
    static func route(method: String, path: String) -> String {
        guard let template = PathTemplate(path) else { return method + " " + path }
        return method + " /" + template.segments.map { segment in
            if case .literal(let text) = segment { text } else { "{}" }
        }.joined(separator: "/")
    }
}
