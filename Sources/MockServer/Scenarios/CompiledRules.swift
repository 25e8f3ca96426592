import ContractModel

/// A scenario's `when`, compiled once at load: regular expressions built, values turned into the text they
/// compare with, and laid out flat (one array of tests, one of the parts they read, one of where each rule
/// ends), so that testing 20 rules walks three arrays and copies no condition.
final class CompiledRules: Sendable {
    /// Each rule's conditions as the contract wrote them: for the near-miss report.
    let conditions: [[RuleCondition]]
    /// Every rule's tests, one rule after another.
    private let tests: [MatcherTest]
    /// The slot in the route's ``Route/ruleSources`` that each test reads.
    private let slots: [Int]
    /// Where each rule's tests end in ``tests``.
    private let ends: [Int]

    /// - Parameter sources: The route's parts read so far: each condition's part is found there, or added.
    init(_ rules: [RequestRule], sources: inout [RuleCondition.Source]) {
        conditions = rules.map(\.conditions)
        var tests: [MatcherTest] = []
        var slots: [Int] = []
        var ends: [Int] = []
        for rule in rules {
            for condition in rule.conditions {
                let slot = sources.firstIndex(of: condition.source) ?? {
                    sources.append(condition.source)
                    return sources.count - 1
                }()
                tests.append(MatcherTest(condition.matcher))
                slots.append(slot)
            }
            ends.append(tests.count)
        }
        self.tests = tests
        self.slots = slots
        self.ends = ends
    }

    /// The index of the first rule that holds for `facts`, or `nil`.
    func firstHolding(_ facts: RequestFacts) -> Int? {
        var start = 0
        for (rule, end) in ends.enumerated() {
            if holds(from: start, to: end, facts) { return rule }
            start = end
        }
        return nil
    }

    /// For the near-miss report: how many conditions of rule `rule` hold, and the first that does not.
    func check(rule: Int, _ facts: RequestFacts) -> (held: Int, failed: RuleCondition?) {
        let start = rule == 0 ? 0 : ends[rule - 1]
        var held = 0
        var failed: RuleCondition?
        for index in start..<ends[rule] {
            if tests[index].holds(facts.value(at: slots[index])) {
                held += 1
            } else if failed == nil {
                failed = conditions[rule][index - start]
            }
        }
        return (held, failed)
    }

    /// What the request had for the part a failed condition of `rule` reads: its text, its JSON, or `nil`.
    func actual(of condition: RuleCondition, rule: Int, _ facts: RequestFacts) -> JSONValue? {
        let start = rule == 0 ? 0 : ends[rule - 1]
        guard let offset = conditions[rule].firstIndex(of: condition) else { return nil }
        switch facts.value(at: slots[start + offset]) {
        case .text(let text)?: return .string(text)
        case .json(let value)?: return value
        case nil: return nil
        }
    }

    private func holds(from start: Int, to end: Int, _ facts: RequestFacts) -> Bool {
        var index = start
        while index < end {
            guard tests[index].holds(facts.value(at: slots[index])) else { return false }
            index += 1
        }
        return true
    }
}

/// A ``Matcher`` ready to test: a reference, so that a rule's tests are walked without copying their strings,
/// and its regular expression compiled.
final class MatcherTest: Sendable {
    private enum Kind {
        case equals, oneOf, prefix, contains, regex, present, not
    }

    private let kind: Kind
    /// ``Matcher/equals(_:)``'s value, and the text it compares with a text part.
    private let json: JSONValue
    private let text: String?
    /// ``Matcher/oneOf(_:)``'s options, or ``Matcher/not(_:)``'s matcher.
    private let inner: [MatcherTest]
    private let regex: SendableRegex?
    private let flag: Bool

    init(_ matcher: Matcher) {
        var json = JSONValue.null
        var text: String?
        var inner: [MatcherTest] = []
        var regex: SendableRegex?
        var flag = false
        switch matcher {
        case .equals(let value):
            kind = .equals
            json = value
            text = Matcher.text(of: value)
        case .oneOf(let values):
            kind = .oneOf
            inner = values.map { MatcherTest(.equals($0)) }
        case .prefix(let prefix):
            kind = .prefix
            text = prefix
        case .contains(let part):
            kind = .contains
            text = part
        case .regex(let pattern):
            kind = .regex
            regex = SendableRegex(pattern)
        case .present(let present):
            kind = .present
            flag = present
        case .not(let matcher):
            kind = .not
            inner = [MatcherTest(matcher)]
        }
        self.json = json
        self.text = text
        self.inner = inner
        self.regex = regex
        self.flag = flag
    }

    func holds(_ value: RequestFacts.Value?) -> Bool {
        switch kind {
        case .present: return (value != nil) == flag
        case .not: return !inner[0].holds(value)
        case .oneOf: return inner.contains { $0.holds(value) }
        case .equals:
            switch value {
            case .text(let actual)?: return text == actual
            // A JSON value equals as JSON; a string on either side also equals a number or boolean spelled as it.
            case .json(let actual)?:
                if actual == json { return true }
                guard json.isString || actual.isString, let text else { return false }
                return Matcher.text(of: actual) == text
            case nil: return false
            }
        // Compared as UTF-8 bytes, the same on every platform: with Foundation loaded, `contains` on Darwin is
        // NSString's search, which treats text differently from the standard library's.
        case .prefix: return Self.text(value).map { $0.utf8.starts(with: (text ?? "").utf8) } ?? false
        case .contains: return Self.text(value).map { Self.bytes($0.utf8, contain: (text ?? "").utf8) } ?? false
        case .regex: return Self.text(value).map { regex?.matchesWhole($0) ?? false } ?? false
        }
    }

    private static func bytes(_ haystack: String.UTF8View, contain needle: String.UTF8View) -> Bool {
        guard let first = needle.first else { return true }
        var start = haystack.startIndex
        while let found = haystack[start...].firstIndex(of: first) {
            if haystack[found...].starts(with: needle) { return true }
            start = haystack.index(after: found)
        }
        return false
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
