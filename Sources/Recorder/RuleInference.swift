import ContractModel

/// Finds the `when` rules that tell an endpoint's recorded answers apart by what each request said.
///
/// Each request is a set of facts (a query value, a JSON body member, a path parameter, a header field, whether
/// credentials came), and each distinct set got one answer (the caller has already turned a request answered
/// differently over time into a sequence). The rules read the smallest set of facts that no two requests with
/// different answers share: one fact if one does, else two, else three, else every fact. Among sets of one size,
/// those of facts with fewer distinct values come first (a `genre` before a per-request `clientRef` that would
/// separate everything and match nothing new), then the query, the body, the path and the headers; a fact with one
/// value tells nothing apart and is left out. Each answer but the default one gets a rule per distinct set of those facts
/// among its requests, every fact compared exactly (`equals`, or `present: false` for one a request lacked), so a
/// recorded request matches its own answer's rule and no other, and a request the recording never saw plays the
/// default. Pure: no files, no server.
enum RuleInference {
    /// One recorded request: its facts, and the answer it got (an index the caller gives meaning to).
    struct Sample {
        let facts: [RuleCondition.Source: JSONValue]
        let answer: Int
    }

    /// The rules for each answer but `defaultAnswer`, by answer; empty when one answer covers every sample.
    /// - Parameter presenceOnly: Facts whose value is never written (credentials): compared by presence.
    static func rules(for samples: [Sample], defaultAnswer: Int,
                      presenceOnly: Set<RuleCondition.Source> = []) -> [Int: [RequestRule]] {
        guard Set(samples.map(\.answer)).count > 1 else { return [:] }
        var distinctValues: [RuleCondition.Source: Set<JSONValue?>] = [:]
        let all = Set(samples.flatMap(\.facts.keys))
        for source in all {
            distinctValues[source] = Set(samples.map { $0.facts[source] })
        }
        let sources = all.filter { (distinctValues[$0]?.count ?? 0) > 1 }.sorted { left, right in
            let (l, r) = (distinctValues[left]?.count ?? 0, distinctValues[right]?.count ?? 0)
            return l != r ? l < r : preference(left, right)
        }
        let chosen = smallestSeparating(sources, samples) ?? sources
        var rules: [Int: [RequestRule]] = [:]
        var seen: [Int: Set<[JSONValue?]>] = [:]
        for sample in samples where sample.answer != defaultAnswer {
            let projection = chosen.map { sample.facts[$0] }
            guard seen[sample.answer, default: []].insert(projection).inserted else { continue }
            let conditions = zip(chosen, projection).map { source, value in
                RuleCondition(source: source, matcher: value == nil ? .present(false)
                    : presenceOnly.contains(source) ? .present(true) : .equals(value ?? .null))
            }
            rules[sample.answer, default: []].append(RequestRule(conditions: conditions))
        }
        return rules.mapValues { merged($0, presenceOnly: presenceOnly) }
    }

    /// The first set of up to three sources, smallest first, on which no two samples with different answers agree.
    private static func smallestSeparating(_ sources: [RuleCondition.Source], _ samples: [Sample])
        -> [RuleCondition.Source]? {
        for size in 1...min(3, max(1, sources.count)) {
            for candidate in combinations(of: sources, size: size) where separates(candidate, samples) {
                return candidate
            }
        }
        return nil
    }

    private static func separates(_ sources: [RuleCondition.Source], _ samples: [Sample]) -> Bool {
        var answers: [[JSONValue?]: Int] = [:]
        for sample in samples {
            let projection = sources.map { sample.facts[$0] }
            if let other = answers.updateValue(sample.answer, forKey: projection), other != sample.answer { return false }
        }
        return true
    }

    /// The `size`-element subsets of `elements`, in order.
    private static func combinations<Element>(of elements: [Element], size: Int) -> [[Element]] {
        guard size > 0 else { return [[]] }
        guard elements.count >= size else { return [] }
        var result: [[Element]] = []
        for (index, first) in elements.enumerated() {
            for rest in combinations(of: Array(elements[(index + 1)...]), size: size - 1) {
                result.append([first] + rest)
            }
        }
        return result
    }

    /// Rules on one fact, each an `equals`, read better as one `oneOf`.
    private static func merged(_ rules: [RequestRule], presenceOnly: Set<RuleCondition.Source>) -> [RequestRule] {
        guard rules.count > 1, let source = rules.first?.conditions.first?.source, !presenceOnly.contains(source) else {
            return rules
        }
        var values: [JSONValue] = []
        for rule in rules {
            guard rule.conditions.count == 1, let condition = rule.conditions.first, condition.source == source,
                  case .equals(let value) = condition.matcher else { return rules }
            values.append(value)
        }
        return [RequestRule(conditions: [RuleCondition(source: source, matcher: .oneOf(values))])]
    }

    /// Query first, then body, path and headers; by name within each.
    private static func preference(_ left: RuleCondition.Source, _ right: RuleCondition.Source) -> Bool {
        func rank(_ source: RuleCondition.Source) -> Int {
            switch source {
            case .query: 0
            case .body: 1
            case .pathParameter: 2
            case .header: 3
            case .cookie: 4
            }
        }
        return rank(left) != rank(right) ? rank(left) < rank(right) : left.name < right.name
    }
}
