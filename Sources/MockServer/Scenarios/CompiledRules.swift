import ContractModel

/// A scenario's `when`, compiled once at load: regular expressions built, values turned into the text they
/// compare with, so that a request pays for the comparisons alone.
struct CompiledRules: Sendable {
    /// Any one must hold; each holds when all its conditions do.
    let rules: [[CompiledCondition]]

    init(_ rules: [RequestRule]) {
        self.rules = rules.map { $0.conditions.map(CompiledCondition.init) }
    }

    /// The index of the first rule that holds for `facts`, or `nil`.
    func firstHolding(_ facts: RequestFacts) -> Int? {
        rules.firstIndex { rule in rule.allSatisfy { $0.holds(facts) } }
    }
}

/// One condition, ready to test.
struct CompiledCondition: Sendable {
    let condition: RuleCondition
    private let test: CompiledMatcher

    init(_ condition: RuleCondition) {
        self.condition = condition
        test = CompiledMatcher(condition.matcher)
    }

    func holds(_ facts: RequestFacts) -> Bool { test.holds(facts.value(of: condition.source)) }

    /// What the request had for this condition's part, for the near-miss report: its text, its JSON, or `nil`.
    func actual(in facts: RequestFacts) -> JSONValue? {
        switch facts.value(of: condition.source) {
        case .text(let text)?: .string(text)
        case .json(let value)?: value
        case nil: nil
        }
    }
}

/// A ``Matcher`` with its regular expression compiled.
indirect enum CompiledMatcher: Sendable {
    case equals(JSONValue, text: String?)
    case oneOf([CompiledMatcher])
    case prefix(String)
    case contains(String)
    case regex(SendableRegex)
    case present(Bool)
    case not(CompiledMatcher)

    init(_ matcher: Matcher) {
        switch matcher {
        case .equals(let value): self = .equals(value, text: Matcher.text(of: value))
        case .oneOf(let values): self = .oneOf(values.map { .equals($0, text: Matcher.text(of: $0)) })
        case .prefix(let text): self = .prefix(text)
        case .contains(let text): self = .contains(text)
        case .regex(let pattern): self = .regex(SendableRegex(pattern))
        case .present(let flag): self = .present(flag)
        case .not(let inner): self = .not(CompiledMatcher(inner))
        }
    }

    func holds(_ value: RequestFacts.Value?) -> Bool {
        switch self {
        case .present(let flag): return (value != nil) == flag
        case .not(let inner): return !inner.holds(value)
        case .oneOf(let options): return options.contains { $0.holds(value) }
        case .equals(let expected, let text):
            switch value {
            case .text(let actual)?: return text == actual
            // A JSON value equals as JSON; a string in the contract also equals a number or boolean spelled as it.
            case .json(let actual)?:
                return actual == expected || (expected.isString && text != nil && Matcher.text(of: actual) == text)
            case nil: return false
            }
        case .prefix(let prefix): return Self.text(value).map { $0.hasPrefix(prefix) } ?? false
        case .contains(let part): return Self.text(value).map { $0.contains(part) } ?? false
        case .regex(let regex): return Self.text(value).map(regex.matchesWhole) ?? false
        }
    }

    /// A text part's text, or a JSON scalar's spelling; `nil` for an array, an object, null or nothing.
    private static func text(_ value: RequestFacts.Value?) -> String? {
        switch value {
        case .text(let text)?: text
        case .json(let json)?: Matcher.text(of: json)
        case nil: nil
        }
    }
}

/// A regular expression compiled once and shared by the event loops.
struct SendableRegex: @unchecked Sendable {
    // @unchecked: `Regex` is a value that is never mutated after it is built here; matching reads it only.
    private let regex: Regex<AnyRegexOutput>?

    /// The contract loader has compiled `pattern` already; one that did not compile would never get here.
    init(_ pattern: String) { regex = try? Regex(pattern) }

    func matchesWhole(_ text: String) -> Bool {
        guard let regex else { return false }
        return (try? regex.wholeMatch(in: text)) != nil
    }
}

private extension JSONValue {
    var isString: Bool { if case .string = self { true } else { false } }
}
