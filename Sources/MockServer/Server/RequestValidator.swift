import ContractModel
import HTTPCore

/// Checks a request against its endpoint's contract: path parameters, query, headers, bearer auth
/// and body shape. Every violation is named, so the developer sees what the client got wrong.
struct RequestValidator {
    struct Result {
        var violations: [String] = []
        /// The bearer token was missing or malformed: answered 401 rather than 400.
        var unauthorized = false
    }

    /// What the path parameters and the query break: all that depends on the method and target alone, which a
    /// ``TargetMemo`` keeps.
    static func targetViolations(of request: HTTPRequest, against route: Route, parameters: [String: String]) -> [String] {
        var violations: [String] = []
        for (name, type) in route.pathParams {
            if let value = parameters[name], !type.accepts(text: value) {
                violations.append("path parameter \(name): \"\(value)\" is not \(article(type))")
            }
        }
        if !route.query.isEmpty {
            checkQuery(of: request, against: route.query, named: route.queryNames, into: &violations)
        }
        return violations
    }

    /// Checks the rest of `request` (headers, bearer auth, body), its `targetViolations` reported first.
    static func validate(_ request: HTTPRequest, against route: Route, targetViolations: [String]) -> Result {
        var result = Result(violations: targetViolations)
        let requirements = route.endpoint.request
        if !route.headers.isEmpty {
            check(fields: route.headers, value: { request.headers[$0] }, what: "header", into: &result.violations)
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

    /// ``check(fields:value:what:into:)`` for a query, on its bytes (one malformed escape is the only violation
    /// reported): a value is decoded only to name it in a violation. A query without a `%` (most) has every name
    /// looked up in one pass (see ``QueryNames``); one with a `%`, name by name.
    /// - Parameter names: `fields`' names, prepared.
    private static func checkQuery(of request: HTTPRequest, against fields: Route.Fields, named names: QueryNames,
                                   into violations: inout [String]) {
        request.withQueryBytes { bytes in
            guard let bytes else {
                for (name, type) in fields where !type.isOptional { violations.append(missing("query parameter", name)) }
                return
            }
            // Most queries hold no `%`: then they are well-formed, and no value needs decoding.
            let escaped = PercentDecoding.hasEscape(bytes)
            guard !escaped || PercentDecoding.isWellFormed(bytes) else {
                violations.append("query string has a malformed percent-escape")
                return
            }
            withUnsafeTemporaryAllocation(of: Range<Int>?.self, capacity: fields.count) { values in
                if escaped {
                    for index in fields.indices {
                        // The value is a slice of the query: its place in it.
                        values[index] = PercentDecoding.firstValue(of: fields[index].name, in: bytes, escaped: true)
                            .flatMap { value in
                                guard let start = value.baseAddress, let base = bytes.baseAddress else { return nil }
                                return (start - base)..<(start - base + value.count)
                            }
                    }
                } else {
                    names.firstValues(inUnescaped: bytes, into: values)
                }
                // Fields read by index, and a name only for a violation: iterating the pairs copied each name.
                for index in fields.indices {
                    let type = fields[index].type
                    guard let range = values[index] else {
                        if !type.isOptional { violations.append(missing("query parameter", fields[index].name)) }
                        continue
                    }
                    let raw = UnsafeBufferPointer(rebasing: bytes[range])
                    let accepted = escaped && raw.contains(UInt8(ascii: "%"))
                        ? PercentDecoding.decode(raw).map { type.accepts(text: $0) } ?? false
                        : type.accepts(utf8: raw)
                    if !accepted {
                        let value = PercentDecoding.decode(raw) ?? ""
                        violations.append(mistyped("query parameter", fields[index].name, value: value, type: type))
                    }
                }
            }
        }
    }

    /// - Parameter fields: In the order the violations are to be reported.
    static func check(
        fields: Route.Fields,
        value lookup: (String) -> String?,
        what: String,
        into violations: inout [String]
    ) {
        for (name, type) in fields {
            guard let value = lookup(name) else {
                if !type.isOptional { violations.append(missing(what, name)) }
                continue
            }
            if !type.accepts(text: value) { violations.append(mistyped(what, name, value: value, type: type)) }
        }
    }

    private static func missing(_ what: String, _ name: String) -> String { "\(what) \(name) is missing" }

    private static func mistyped(_ what: String, _ name: String, value: String, type: FieldType) -> String {
        "\(what) \(name): \"\(value.prefix(64))\" is not \(article(type))"
    }

    private static func hasBearerToken(_ value: String?) -> Bool {
        guard let value, value.count > 7, value.prefix(7).lowercased() == "bearer " else { return false }
        return !value.dropFirst(7).trimmingSpaces().isEmpty
    }

    static func article(_ type: FieldType) -> String {
        switch type.kind {
        case .integer: "an integer in \(FieldType.integerRange.lowerBound)...\(FieldType.integerRange.upperBound)"
        case .json: "a JSON document"
        case .file: "a file"
        default: "a " + type.kind.rawValue
        }
    }
}
