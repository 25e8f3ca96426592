import HTTPCore
import MockProtocol

/// What `when` rules decide for a request: the scenario whose rules hold, and the answer when none applies.
extension RequestHandler {
    /// The scenario whose `when` holds for the request, and the rule: tested anew, or, for rules that read the
    /// target alone, as this loop's memo kept it for the target.
    func ruleMatch(_ request: HTTPRequest, route: Route, parameters: [String: String],
                           verdict: TargetMemo.Verdict) -> (play: ScenarioPlay, rule: Int)? {
        var outcome = route.rulesReadTargetOnly ? verdict.ruled : .unknown
        if case .unknown = outcome {
            let facts = RequestFacts(request, parameters: parameters, sources: route.ruleSources)
            outcome = route.firstHolding(facts).map { .holding(set: $0.set, rule: $0.rule) } ?? .none
            if route.rulesReadTargetOnly { verdict.ruled = outcome }
        }
        guard case .holding(let set, let rule) = outcome else { return nil }
        return (route.ruleSets[set].play, rule)
    }

    /// The near-miss 404 for a request that no scenario applies to (each has a `when`, none holds, and nothing
    /// else names one), journaled with the same line.
    func noScenarioApplies(to request: HTTPRequest, route: Route, parameters: [String: String]) -> Reply {
        let miss = NearMiss(route: route, facts: RequestFacts(request, parameters: parameters, sources: route.ruleSources))
        if let fallback { return proxied(request, via: fallback, endpoint: route.id, why: miss.message) }
        let response = HTTPResponse.json(.notFound, miss.body, headers: MockHeader.naming(endpoint: route.id, scenario: nil))
        return journaled(response, entry(request, endpoint: route.id, status: 404, reason: miss.message))
    }

    /// Whether a `when` rule picked a 401 or 403 for a request whose only fault is its missing bearer token: the
    /// contract then says how such a request is refused (a recording's backend refusal), and that answers it.
    static func ruleAnswersRefusal(_ validation: RequestValidator.Result,
                                           _ ruled: (play: ScenarioPlay, rule: Int)?, of route: Route) -> Bool {
        guard validation.unauthorized, validation.violations.count == 1, let ruled,
              case .respond(let status, _, _) = ruled.play.action, status.code == 401 || status.code == 403,
              let rules = route.endpoint.scenario(named: ruled.play.name)?.when, rules.indices.contains(ruled.rule)
        else { return false }
        // The rule must be about the missing credentials, not a 403 picked by some other part of the request.
        return rules[ruled.rule].conditions.contains {
            $0.source == .header("authorization") && $0.matcher == .present(false)
        }
    }
}
