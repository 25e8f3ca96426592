/// The request `mock-server verify` sends the real backend for an endpoint or a scenario (`"verify"`): the values
/// its path parameters, query, header fields and body take. A header value may name an environment variable as
/// `${NAME}`, so that a token stays out of the file. A scenario's block adds to its endpoint's, part by part.
///
/// ```json
/// "verify": { "pathParams": { "id": "1" }, "query": { "page": "2" }, "headers": { "Authorization": "Bearer ${TOKEN}" } }
/// ```
package struct VerifyExample: Sendable, Equatable {
    package var pathParams: [String: String] = [:]
    package var query: [String: String] = [:]
    package var headers: [String: String] = [:]
    /// A JSON body; `nil` sends none.
    package var body: JSONValue?

    package init(pathParams: [String: String] = [:], query: [String: String] = [:], headers: [String: String] = [:],
                 body: JSONValue? = nil) {
        self.pathParams = pathParams
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// `self` with `more`'s values over it, part by part.
    package func adding(_ more: VerifyExample?) -> VerifyExample {
        guard let more else { return self }
        return VerifyExample(pathParams: pathParams.merging(more.pathParams) { $1 },
                             query: query.merging(more.query) { $1 },
                             headers: headers.merging(more.headers) { $1 },
                             body: more.body ?? body)
    }

    /// As a contract writes it.
    package var json: JSONValue {
        var fields: [String: JSONValue] = [:]
        if !pathParams.isEmpty { fields["pathParams"] = .object(pathParams.mapValues(JSONValue.string)) }
        if !query.isEmpty { fields["query"] = .object(query.mapValues(JSONValue.string)) }
        if !headers.isEmpty { fields["headers"] = .object(headers.mapValues(JSONValue.string)) }
        if let body { fields["body"] = body }
        return .object(fields)
    }
}

/// How `mock-server verify` compares a backend's status with a scenario's (`"verifyStatus"`).
package enum VerifyStatus: String, Sendable, CaseIterable {
    /// The status class the scenario's `expect` maps to (2xx for `success`, 4xx for `requestErr`…), the default.
    case `class`
    /// The scenario's own status.
    case exact
}
