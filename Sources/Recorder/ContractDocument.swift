import ContractModel

/// Contract files as the recorder writes them, through ``ContractWriter`` (keys in the format's order,
/// names within a map sorted), so the same recording always gives the same bytes.
enum ContractDocument {
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
        ContractWriter.bytes(document)
    }

    /// The route a contract endpoint's path stands for, parameter names aside: `GET /v1/items/{}`.
    static func route(method: String, path: String) -> String {
        guard let template = PathTemplate(path) else { return method + " " + path }
        return method + " /" + template.segments.map { segment in
            if case .literal(let text) = segment { text } else { "{}" }
        }.joined(separator: "/")
    }
}
