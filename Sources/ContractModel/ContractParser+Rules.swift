// Regular expressions are compiled here to check them; the server compiles its own copy once at load.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ContractParser {
    // MARK: - when

    /// A scenario's `when`: one rule (an object) or rules of which one must hold (an array), each checked
    /// against the endpoint: a path parameter it has, a pointer that is RFC 6901, a regular expression that
    /// compiles, a value its declared type can take.
    mutating func parseWhen(_ value: JSONValue?, parameters: FixtureParameters, at path: String) -> [RequestRule] {
        guard let value else { return [] }
        switch value {
        case .object:
            return parseRule(value, parameters: parameters, at: path).map { [$0] } ?? []
        case .array(let items):
            if items.isEmpty { report(path, "must hold at least one rule, or be left out") }
            return items.enumerated().compactMap { index, item in
                parseRule(item, parameters: parameters, at: path + "[\(index)]")
            }
        default:
            report(path, "expected an object (every condition holds) or an array of them (one holds), "
                + "found \(value.typeName)")
            return []
        }
    }

    private mutating func parseRule(_ value: JSONValue, parameters: FixtureParameters, at path: String) -> RequestRule? {
        guard let sources = object(value, at: path, keys: ContractSchema.keys(of: .when)) else { return nil }
        if sources.isEmpty { report(path, "must name at least one of " + ContractSchema.keys(of: .when).sorted()
            .joined(separator: ", ")) }
        var conditions: [RuleCondition] = []
        for key in ["query", "headers", "pathParams", "cookies", "body"] {
            guard let map = sources[key] else { continue }
            guard case .object(let members) = map, !members.isEmpty else {
                report(path + "." + key, "expected an object of names and what each must be, found "
                    + (map.objectIsEmpty ? "an empty one, which would make the rule hold for any request" : map.typeName))
                continue
            }
            for (name, matcherValue) in members.sorted(by: { $0.key < $1.key }) {
                let at = path + "." + key + "." + name
                guard let source = source(key, name, parameters: parameters, at: at),
                      let matcher = parseMatcher(matcherValue, at: at)
                else { continue }
                checkHoldable(matcher, source: source, parameters: parameters, at: at)
                conditions.append(RuleCondition(source: source, matcher: matcher))
            }
        }
        return conditions.isEmpty ? nil : RequestRule(conditions: conditions)
    }

    private mutating func source(_ key: String, _ name: String, parameters: FixtureParameters, at path: String)
        -> RuleCondition.Source?
    {
        switch key {
        case "query": return .query(name)
        case "headers": return .header(name.lowercased())
        case "cookies": return .cookie(name)
        case "pathParams":
            guard parameters.path.contains(name) else {
                report(path, "the path has no parameter {\(name)}; it has "
                    + (parameters.path.isEmpty ? "none" : parameters.path.map { "{\($0)}" }.joined(separator: ", ")))
                return nil
            }
            return .pathParameter(name)
        default:
            guard name.hasPrefix("/"), JSONValue.isValidPointer(name) else {
                report(path, "\"\(name)\" is not an RFC 6901 pointer: it starts with / (\"/kind\", \"/items/0/id\", "
                    + "~1 for a / in a name, ~0 for a ~)")
                return nil
            }
            return .body(pointer: name)
        }
    }

    /// A matcher: a plain string (equality), or an object with exactly one of ``Matcher/keys``.
    mutating func parseMatcher(_ value: JSONValue, at path: String) -> Matcher? {
        if case .string(let text) = value { return .equals(.string(text)) }
        guard case .object(let members) = value else {
            report(path, "expected a string, or an object with one of " + Matcher.keys.joined(separator: ", ")
                + "; found \(value.typeName)")
            return nil
        }
        guard members.count == 1, let (key, argument) = members.first else {
            report(path, "a matcher has exactly one of " + Matcher.keys.joined(separator: ", ")
                + (members.isEmpty ? "" : "; found " + members.keys.sorted().joined(separator: ", ")))
            return nil
        }
        let at = path + "." + key
        switch key {
        case "equals":
            return .equals(argument)
        case "oneOf":
            guard case .array(let values) = argument, !values.isEmpty else {
                report(at, "expected a non-empty array of values")
                return nil
            }
            return .oneOf(values)
        case "prefix", "contains", "regex":
            guard case .string(let text) = argument else {
                report(at, "expected a string, found \(argument.typeName)")
                return nil
            }
            guard !text.isEmpty else {
                report(at, "is empty, so it would hold for any value; use {\"present\": true} for that")
                return nil
            }
            if key == "prefix" { return .prefix(text) }
            if key == "contains" { return .contains(text) }
            do {
                _ = try Regex(text)
            } catch {
                report(at, "\"\(text)\" is not a regular expression: \(error)")
                return nil
            }
            return .regex(text)
        case "present":
            guard let flag = optionalBool(argument, at: at) else { return nil }
            return .present(flag)
        case "not":
            return parseMatcher(argument, at: at).map(Matcher.not)
        default:
            report(at, "unknown matcher; use one of " + Matcher.keys.joined(separator: ", "))
            return nil
        }
    }

    /// A rule that can never hold next to the endpoint's declared types is a typo: `"page": "two"` for an
    /// `integer` parameter would leave its scenario unreachable.
    private mutating func checkHoldable(_ matcher: Matcher, source: RuleCondition.Source, parameters: FixtureParameters,
                                        at path: String) {
        let declared: FieldType?
        switch source {
        case .query(let name): declared = parameters.request.query[name]
        case .pathParameter(let name): declared = parameters.request.pathParams[name]
        case .header(let name):
            declared = parameters.request.headers.first { $0.key.lowercased() == name }?.value
        case .body(let pointer):
            let field = RuleCondition.Source.formField(of: pointer)
            declared = field.flatMap { parameters.request.body?.fields[$0] }
        case .cookie:
            declared = nil
        }
        guard let declared, declared.kind != .string, declared.kind != .file else { return }
        for text in matcher.comparedTexts where !declared.accepts(text: text) {
            report(path, "can never hold: \"\(text)\" is not a value of \(source.description), which the endpoint "
                + "declares as \(declared)")
        }
    }
}

private extension JSONValue {
    var objectIsEmpty: Bool { if case .object(let members) = self { members.isEmpty } else { false } }
}
