import ContractModel

/// Checks a request against its endpoint's contract: path parameters, query, headers, bearer auth
/// and body shape. Every violation is named, so the developer sees what the client got wrong.
struct RequestValidator {
    struct Result {
        var violations: [String] = []
        /// The bearer token was missing or malformed: answered 401 rather than 400.
        var unauthorized = false
    }

    static func validate(
        _ request: HTTPRequest,
        against endpoint: ContractEndpoint,
        parameters: [String: String]
    ) -> Result {
        var result = Result()
        let requirements = endpoint.request
        for (name, type) in requirements.pathParams.sorted(by: { $0.key < $1.key }) {
            if let value = parameters[name], !type.accepts(text: value) {
                result.violations.append("path parameter \(name): \"\(value)\" is not \(article(type))")
            }
        }
        if !requirements.query.isEmpty {
            if let items = PercentDecoding.queryItems(request.query) {
                check(fields: requirements.query, value: { name in items.first { $0.name == name }?.value },
                      what: "query parameter", into: &result.violations)
            } else {
                result.violations.append("query string has a malformed percent-escape")
            }
        }
        if !requirements.headers.isEmpty {
            check(fields: requirements.headers, value: { request.headers[$0] }, what: "header",
                  into: &result.violations)
        }
        if requirements.bearerAuth && !hasBearerToken(request.headers["authorization"]) {
            result.violations.append("header Authorization: a bearer token (\"Bearer <token>\") is required")
            result.unauthorized = true
        }
        if let body = requirements.body {
            result.violations += BodyValidator.validate(request, against: body)
        }
        return result
    }

    static func check(
        fields: [String: FieldType],
        value lookup: (String) -> String?,
        what: String,
        into violations: inout [String]
    ) {
        for (name, type) in fields.sorted(by: { $0.key < $1.key }) {
            guard let value = lookup(name) else {
                if !type.isOptional { violations.append("\(what) \(name) is missing") }
                continue
            }
            if !type.accepts(text: value) {
                violations.append("\(what) \(name): \"\(value.prefix(64))\" is not \(article(type))")
            }
        }
    }

    private static func hasBearerToken(_ value: String?) -> Bool {
        guard let value, value.count > 7, value.prefix(7).lowercased() == "bearer " else { return false }
        return !value.dropFirst(7).trimmingSpaces().isEmpty
    }

    static func article(_ type: FieldType) -> String {
        switch type.kind {
        case .integer: "an integer"
        case .json: "a JSON document"
        case .file: "a file"
        default: "a " + type.kind.rawValue
        }
    }
}
