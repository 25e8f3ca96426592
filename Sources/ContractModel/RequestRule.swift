/// One way a request can pick a scenario by what it says: every condition must hold. A scenario's `when` is
/// an object (one rule) or an array of them (any one must hold).
///
/// ```json
/// "when": { "query": { "genre": "fantasy" }, "headers": { "Authorization": { "present": true } } }
/// "when": [ { "body": { "/kind": "gift" } }, { "query": { "gift": "1" } } ]
/// ```
package struct RequestRule: Sendable, Equatable {
    /// In the order a contract writes them: by source, then by name.
    package let conditions: [RuleCondition]

    package init(conditions: [RuleCondition]) {
        self.conditions = conditions
    }
}

/// One part of a request and what it must be.
package struct RuleCondition: Sendable, Equatable {
    /// The part of a request a condition reads.
    package enum Source: Sendable, Equatable, Hashable {
        /// A query parameter, by name, percent-decoded (`+` stays a plus sign).
        case query(String)
        /// A header field, by name, lower case (names are case-insensitive); several are joined by `, `.
        case header(String)
        /// A parameter of the endpoint's path template, percent-decoded.
        case pathParameter(String)
        /// A cookie of the `Cookie` header, by name.
        case cookie(String)
        /// A value in a JSON body (an RFC 6901 pointer), or a form field (`/name`).
        case body(pointer: String)

        /// The `when` key it is written under.
        package var key: String {
            switch self {
            case .query: "query"
            case .header: "headers"
            case .pathParameter: "pathParams"
            case .cookie: "cookies"
            case .body: "body"
            }
        }

        /// The name (or pointer) it is written with.
        package var name: String {
            switch self {
            case .query(let name), .header(let name), .pathParameter(let name), .cookie(let name): name
            case .body(let pointer): pointer
            }
        }

        /// `query.genre`, `headers.authorization`, `body./kind`: for messages.
        package var description: String { key + "." + name }

        /// The field a one-token pointer names in a form body (`/a~1b` is `a/b`); `nil` for a deeper pointer.
        package static func formField(of pointer: String) -> String? {
            let token = pointer.dropFirst()
            guard !token.contains("/") else { return nil }
            return String(token).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }

    package let source: Source
    package let matcher: Matcher

    package init(source: Source, matcher: Matcher) {
        self.source = source
        self.matcher = matcher
    }
}

/// What a value must be. A plain string in a contract is ``equals(_:)`` that string.
package enum Matcher: Sendable, Equatable {
    /// Equal to the value: a text part equals its text (a number or boolean by its JSON spelling); a JSON body
    /// value equals it as JSON, except that a string also equals a number or boolean spelled as it.
    case equals(JSONValue)
    /// Equal to one of the values.
    case oneOf([JSONValue])
    case prefix(String)
    case contains(String)
    /// The whole value matches the regular expression.
    case regex(String)
    /// Whether the part is there at all.
    case present(Bool)
    indirect case not(Matcher)

    /// The keys a matcher object may have (exactly one of them).
    package static let keys = ["equals", "oneOf", "prefix", "contains", "regex", "present", "not"]

    /// `{"prefix": "ab"}`, or the plain string for ``equals(_:)`` a string: as a contract writes it.
    package var json: JSONValue {
        switch self {
        case .equals(.string(let text)): .string(text)
        case .equals(let value): .object(["equals": value])
        case .oneOf(let values): .object(["oneOf": .array(values)])
        case .prefix(let text): .object(["prefix": .string(text)])
        case .contains(let text): .object(["contains": .string(text)])
        case .regex(let pattern): .object(["regex": .string(pattern)])
        case .present(let flag): .object(["present": .bool(flag)])
        case .not(let matcher): .object(["not": matcher.json])
        }
    }

    /// The JSON text a scalar is spelled with in a query, header, path or form field: `3`, `true`, `abc`.
    package static func text(of value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): Int64(exactly: number).map(String.init) ?? "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// The text values this matcher can equal (``equals(_:)`` and ``oneOf(_:)``), for the load-time check
    /// against a part's declared type; empty for the others.
    package var comparedTexts: [String] {
        switch self {
        case .equals(let value): Self.text(of: value).map { [$0] } ?? []
        case .oneOf(let values): values.compactMap(Self.text(of:))
        default: []
        }
    }
}

extension RequestRule {
    /// The rule as a contract writes it: `{"query": {"genre": "fantasy"}, "body": {"/kind": "gift"}}`.
    package var json: JSONValue {
        var sources: [String: [String: JSONValue]] = [:]
        for condition in conditions {
            sources[condition.source.key, default: [:]][condition.source.name] = condition.matcher.json
        }
        return .object(sources.mapValues(JSONValue.object))
    }
}
