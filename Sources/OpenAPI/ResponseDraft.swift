import ContractModel

/// One status of an operation's `responses`, gathered from the scenarios that answer with it and from
/// the mock server's own answers, then written as an OpenAPI Response Object.
struct ResponseDraft {
    /// What answers with this status, one sentence each.
    var notes: [String] = []
    var content: [String: MediaDraft] = [:]
    var headers: [String: JSONValue] = [:]

    /// One media type of a response.
    struct MediaDraft {
        var examples: [String: JSONValue] = [:]
        /// The values a success schema is inferred from; `nil` once one cannot be (a template, text).
        var schemaSources: [JSONValue]? = []
        /// A schema known outright (text, a resource's item), used when nothing is inferred.
        var schema: JSONValue?
        /// Whether scenarios serve this media type (else only the mock's own errors do).
        var servedByScenarios = false
    }

    /// Documents the mock server's own JSON error body at this status.
    mutating func addMockError(_ note: String) {
        notes.append(note)
        if content["application/json"] == nil { content["application/json"] = MediaDraft() }
    }

    /// The Response Object.
    func json() -> JSONValue {
        var response: [String: JSONValue] = ["description": .string(notes.joined(separator: " "))]
        if !headers.isEmpty { response["headers"] = .object(headers) }
        if !content.isEmpty {
            response["content"] = .object(content.mapValues { media in
                var fields: [String: JSONValue] = [:]
                if !media.examples.isEmpty { fields["examples"] = .object(media.examples) }
                if let sources = media.schemaSources, !sources.isEmpty {
                    fields["schema"] = SchemaInference.schema(of: sources)
                } else if let schema = media.schema {
                    fields["schema"] = schema
                } else if !media.servedByScenarios {
                    fields["schema"] = OpenAPIExporter.mockErrorReference
                }
                return .object(fields)
            })
        }
        return .object(response)
    }

    /// A response header documented with the value a scenario sends.
    static func header(example: String?, schema: JSONValue = .object(["type": .string("string")])) -> JSONValue {
        var header: [String: JSONValue] = ["schema": schema]
        if let example { header["example"] = .string(example) }
        return .object(header)
    }
}
