import ContractModel

/// Why no scenario of an endpoint applies to a request (every scenario has a `when`, and none holds): the
/// rule that came closest (the most conditions held; the first of those in contract order), the condition of
/// it that failed, and what the request had there, as WireMock's near-miss report tells.
struct NearMiss {
    /// One line, for the journal and the body's `responseMsg`.
    let message: String
    /// The 404's JSON body: `status`, `responseMsg`, `endpoint`, `closest` (`scenario`, `rule`, `condition`,
    /// `expected`, `actual`) and `data: null`.
    let body: [UInt8]

    init(route: Route, facts: RequestFacts?) {
        var best: (play: ScenarioPlay, rules: CompiledRules, rule: Int, held: Int, failed: RuleCondition)?
        if let facts {
            for (play, rules) in route.ruleSets {
                for index in rules.conditions.indices {
                    let (held, failed) = rules.check(rule: index, facts)
                    guard let failed else { continue }
                    if best == nil || held > best?.held ?? 0 { best = (play, rules, index, held, failed) }
                }
            }
        }
        var fields: [String: JSONValue] = ["status": .integer(404), "endpoint": .string(route.id), "data": .null]
        var message = "no scenario of \(route.id) applies to this request: each has a when, and none holds"
        if let best, let facts {
            let condition = best.failed
            let actual = best.rules.actual(of: condition, rule: best.rule, facts)
            let had = actual.map { "the request had " + String(decoding: $0.serialized, as: UTF8.self) }
                ?? "the request had none"
            message += "; closest: \"\(best.play.name)\" (when[\(best.rule)]), where \(condition.source.description) "
                + "must be " + String(decoding: condition.matcher.json.serialized, as: UTF8.self) + "; " + had
            fields["closest"] = .object([
                "scenario": .string(best.play.name), "rule": .integer(best.rule),
                "condition": .string(condition.source.description), "expected": condition.matcher.json,
                "actual": actual ?? .null,
            ])
        }
        fields["responseMsg"] = .string(message)
        self.message = message
        body = JSONValue.object(fields).serialized
    }
}
