import ContractModel

/// Turns recorded exchanges into endpoints, scenarios and fixtures (``RecordingPlan``), so that the contracts
/// answer each request by what it says, in any order.
///
/// One endpoint per method and path template (``PathTemplating``). On it:
/// - A templated endpoint serves the ids that were answered alike (one status, content type and kind of body)
///   from a fixture per id (`v1/items/{id}.json`); that scenario is the default.
/// - Requests answered otherwise get a scenario per distinct answer, picked by `when` rules on the fewest
///   request parts that tell the answers apart (``RuleInference``): a query value, a body member, the path
///   parameter, a header field.
/// - A 401 or 403 that came exactly for the requests without credentials is auth: the endpoint requires a
///   bearer token (when the others sent one), and the recorded refusal answers requests without `Authorization`.
/// - Only the same request answered differently over time becomes a sequence (`recorded`), played in the
///   recorded order.
/// A request the recording never saw plays the default: the per-id scenario, else the answer most requests got.
struct RecordingPlanner {
    private let headers: HeaderFilter
    private let redactor: SecretRedactor
    private let keepsLatency: Bool
    private var namer: FixtureNamer
    /// Per-id fixture folders handed out (lower-cased), each with the template path it belongs to.
    private var perIDFolderOwners: [String: String] = [:]
    /// Fixture paths by their bytes: one file per distinct body.
    private var fixturePaths: [[UInt8]: String] = [:]
    private var plan = RecordingPlan()
    private var usedIDs: Set<String>

    init(headers: HeaderFilter, redactor: SecretRedactor, namer: FixtureNamer, reservedIDs: Set<String> = [],
         keepsLatency: Bool = true) {
        self.headers = headers
        self.redactor = redactor
        self.namer = namer
        self.keepsLatency = keepsLatency
        usedIDs = reservedIDs
    }

    mutating func plan(_ exchanges: [RecordedExchange]) -> RecordingPlan {
        var normalized: [NormalizedExchange] = []
        for (order, exchange) in exchanges.enumerated() {
            do {
                normalized.append(try NormalizedExchange(exchange, order: order, headers: headers, redactor: redactor))
            } catch {
                plan.skipped.append(error.reason)
            }
        }
        plan.credentialFieldsDropped = exchanges.reduce(0) { count, exchange in
            count + (exchange.requestHeaders + exchange.responseHeaders).filter { headers.isSecret($0.name.lowercased()) }.count
        }
        let templates = PathTemplating.templates(for: Set(normalized.map(\.segments)))
        var groups: [RouteKey: [NormalizedExchange]] = [:]
        for exchange in normalized {
            guard let template = templates[exchange.segments] else { continue }
            groups[RouteKey(template: template, method: exchange.method), default: []].append(exchange)
        }
        for key in groups.keys.sorted() {
            guard let members = groups[key] else { continue }
            addEndpoint(method: key.method, template: key.template, exchanges: members)
        }
        return plan
    }

    private struct RouteKey: Hashable, Comparable {
        let template: RecordedTemplate
        let method: String

        static func < (left: RouteKey, right: RouteKey) -> Bool {
            left.template.path != right.template.path ? left.template.path < right.template.path
                : left.method < right.method
        }
    }

    /// What one request got: its own fixture by id, one answer, or answers that changed over time.
    private enum Answer: Hashable {
        case perID
        case single(RecordedOutcome)
        case sequence([RecordedOutcome])
    }

    // MARK: - Endpoints

    private mutating func addEndpoint(method: String, template: RecordedTemplate, exchanges: [NormalizedExchange]) {
        var report = EndpointReport(method: method, path: template.path,
                                    templated: template.parameters.map(\.name))
        // Auth: refusals exactly for the requests without credentials.
        let refused = exchanges.filter { [401, 403].contains($0.outcome.status) }
        let isAuth = !refused.isEmpty && refused.count < exchanges.count
            && exchanges.allSatisfy { [401, 403].contains($0.outcome.status) == !$0.hasCredentials }
        let answered = isAuth ? exchanges.filter(\.hasCredentials) : exchanges

        // Each distinct request, by what a rule could read of it, and its answer. A header field whose value differs
        // on every request (a timestamp, a client's own id) is no fact: it would make every request its own.
        let unique = Self.uniquePerRequestHeaders(answered)
        var keys: [[RuleCondition.Source: JSONValue]] = []
        var outcomesByKey: [[RuleCondition.Source: JSONValue]: [RecordedOutcome]] = [:]
        for exchange in answered {
            var key = facts(of: exchange, template: template)
            for source in unique { key[source] = nil }
            if outcomesByKey[key] == nil { keys.append(key) }
            outcomesByKey[key, default: []].append(exchange.outcome)
        }
        let regularPaths = template.parameters.isEmpty ? RegularPaths() : regularPaths(answered)
        var answers: [Answer] = []
        var answerOfKey: [[RuleCondition.Source: JSONValue]: Int] = [:]
        for key in keys {
            let outcomes = outcomesByKey[key] ?? []
            let answer: Answer
            if regularPaths.path(of: key, template: template) != nil {
                answer = .perID
            } else if Set(outcomes).count == 1, let outcome = outcomes.first {
                answer = .single(outcome)
            } else {
                answer = .sequence(outcomes)
            }
            if let index = answers.firstIndex(of: answer) {
                answerOfKey[key] = index
            } else {
                answerOfKey[key] = answers.count
                answers.append(answer)
            }
        }
        let defaultAnswer = Self.defaultAnswer(answers, keys: keys.compactMap { answerOfKey[$0] })
        let samples = keys.compactMap { key in answerOfKey[key].map { RuleInference.Sample(facts: key, answer: $0) } }
        // Every answered request carried credentials when auth decided: its presence tells nothing apart.
        let presence: Set<RuleCondition.Source> = [.header("authorization")]
        let rules = RuleInference.rules(for: isAuth ? samples.map(Self.withoutCredentials) : samples,
                                        defaultAnswer: defaultAnswer ?? -1, presenceOnly: presence)

        // Scenarios: one per distinct outcome, the per-id one, and one per sequence.
        var outcomes: [RecordedOutcome] = []
        for answer in answers {
            switch answer {
            case .single(let outcome): outcomes.append(outcome)
            case .sequence(let steps): outcomes += steps
            case .perID: break
            }
        }
        let refusal = isAuth ? Self.mostCommon(refused.map(\.outcome)) : nil
        if let refusal { outcomes.append(refusal) }
        outcomes = distinct(outcomes)
        var perID: ScenarioDraft?
        if answers.contains(.perID) {
            perID = perIDScenario(method: method, template: template, exchanges: answered.filter { exchange in
                regularPaths.paths.contains(exchange.segments)
            })
        }
        let names = ScenarioNaming.names(for: outcomes, taken: Set([perID?.name].compactMap { $0 }))
        let stem = RecordingNames.fixtureFolder(of: template) + "/" + method.lowercased()
            + (template.parameters.isEmpty ? "" : "-" + template.parameters.map(\.name).joined(separator: "-"))
        var byOutcome: [RecordedOutcome: ScenarioDraft] = [:]
        for outcome in ScenarioNaming.ordered(outcomes) {
            var draft = scenario(outcome, name: names[outcome] ?? "", fixtureStem: stem)
            let answering = answered.filter { $0.outcome == outcome } + refused.filter { $0.outcome == outcome }
            draft.latency = latency(answering)
            draft.verify = answering.first.map { example($0, template: template) }
            byOutcome[outcome] = draft
        }
        var sequences: [ScenarioDraft] = []
        var defaultName: String?
        var taken = Set(names.values).union([perID?.name].compactMap { $0 })
        for (index, answer) in answers.enumerated() {
            let when = rules[index] ?? []
            switch answer {
            case .perID:
                perID?.when = when
                if index == defaultAnswer { defaultName = perID?.name }
            case .single(let outcome):
                byOutcome[outcome]?.when = when
                if index == defaultAnswer { defaultName = names[outcome] }
            case .sequence(let steps):
                var name = ScenarioNaming.replay
                var counter = 2
                while taken.contains(name) { name = ScenarioNaming.replay + "\(counter)"; counter += 1 }
                taken.insert(name)
                var draft = ScenarioDraft(name: name, sequence: steps.compactMap { names[$0] })
                draft.when = when
                sequences.append(draft)
                if index == defaultAnswer { defaultName = name }
                report.sequences.append(name + ": the same request got " + steps.map { String($0.status) }
                    .joined(separator: ", ") + " in turn")
            }
        }
        if let refusal {
            byOutcome[refusal]?.when = [RequestRule(conditions: [
                RuleCondition(source: .header("authorization"), matcher: .present(false)),
            ])]
            // Verified without credentials, whatever `--header` gives: an empty value sends none.
            byOutcome[refusal]?.verify?.headers["Authorization"] = ""
        }
        // The default first; then the refusal, whose rule (no credentials) must come before any other answer's, which
        // do not read credentials; then each outcome by status, then the sequences.
        let refusalName = refusal.flatMap { names[$0] }
        let all = [perID].compactMap { $0 } + ScenarioNaming.ordered(outcomes).compactMap { byOutcome[$0] } + sequences
        let scenarios = all.filter { $0.name == defaultName }
            + all.filter { $0.name == refusalName && $0.name != defaultName }
            + all.filter { $0.name != defaultName && $0.name != refusalName }
        report.rules = scenarios.reduce(0) { $0 + $1.when.count }
        let bearer = isAuth && answered.allSatisfy(\.hasBearerToken)
        if isAuth { report.auth = bearer ? "bearer" : "Authorization present" }
        addEndpoint(method: method, template: template, exchanges: exchanges, scenarios: scenarios,
                    requiresBearer: bearer || (!isAuth && exchanges.allSatisfy(\.hasBearerToken)), report: report)
    }

    /// The default answer: the per-id one, else the one most distinct requests got (on a tie the lower status,
    /// then the first recorded).
    private static func defaultAnswer(_ answers: [Answer], keys: [Int]) -> Int? {
        if let perID = answers.firstIndex(of: .perID) { return perID }
        var counts: [Int: Int] = [:]
        for answer in keys { counts[answer, default: 0] += 1 }
        func status(_ answer: Answer) -> Int {
            switch answer {
            case .single(let outcome): outcome.status
            case .sequence(let steps): steps.first?.status ?? 0
            case .perID: 0
            }
        }
        return answers.indices.max { left, right in
            let (l, r) = (counts[left] ?? 0, counts[right] ?? 0)
            if l != r { return l < r }
            if status(answers[left]) != status(answers[right]) { return status(answers[left]) > status(answers[right]) }
            return left > right
        }
    }

    /// The header facts that take a different value on each of three or more requests.
    private static func uniquePerRequestHeaders(_ exchanges: [NormalizedExchange]) -> Set<RuleCondition.Source> {
        guard exchanges.count >= 3 else { return [] }
        var values: [RuleCondition.Source: [JSONValue]] = [:]
        for exchange in exchanges {
            for (source, value) in exchange.facts { if case .header = source { values[source, default: []].append(value) } }
        }
        return Set(values.filter { $0.value.count == exchanges.count && Set($0.value).count == exchanges.count }.keys)
    }

    private static func withoutCredentials(_ sample: RuleInference.Sample) -> RuleInference.Sample {
        var facts = sample.facts
        facts[.header("authorization")] = nil
        return RuleInference.Sample(facts: facts, answer: sample.answer)
    }

    private static func mostCommon(_ outcomes: [RecordedOutcome]) -> RecordedOutcome? {
        var counts: [RecordedOutcome: Int] = [:]
        for outcome in outcomes { counts[outcome, default: 0] += 1 }
        return outcomes.max { (counts[$0] ?? 0) < (counts[$1] ?? 0) }
    }

    /// What a rule could read of the request: its facts and its path parameters.
    private func facts(of exchange: NormalizedExchange, template: RecordedTemplate) -> [RuleCondition.Source: JSONValue] {
        var facts = exchange.facts
        for (name, value) in template.values(in: exchange.segments) { facts[.pathParameter(name)] = .string(value) }
        return facts
    }

    /// The concrete paths whose requests all got one answer of the shape most such paths share: served from a
    /// fixture per id.
    private struct RegularPaths {
        var paths: Set<[String]> = []

        func path(of key: [RuleCondition.Source: JSONValue], template: RecordedTemplate) -> [String]? {
            var concrete: [String] = []
            for segment in template.segments {
                switch segment {
                case .literal(let text): concrete.append(text)
                case .parameter(let name, _):
                    guard case .string(let value)? = key[.pathParameter(name)] else { return nil }
                    concrete.append(value)
                }
            }
            return paths.contains(concrete) ? concrete : nil
        }
    }

    private func regularPaths(_ exchanges: [NormalizedExchange]) -> RegularPaths {
        var order: [[String]] = []
        var byPath: [[String]: [NormalizedExchange]] = [:]
        for exchange in exchanges {
            if byPath[exchange.segments] == nil { order.append(exchange.segments) }
            byPath[exchange.segments, default: []].append(exchange)
        }
        let single = order.filter { Set(byPath[$0, default: []].map(\.outcome)).count == 1 }
        let shape = commonShape(of: single.compactMap { byPath[$0]?.first?.outcome })
        return RegularPaths(paths: Set(single.filter { byPath[$0]?.first?.outcome.shape == shape }))
    }

    /// The scenario that serves each regular id its own recorded body, from `folder/{id}.json`.
    private mutating func perIDScenario(method: String, template: RecordedTemplate,
                                        exchanges: [NormalizedExchange]) -> ScenarioDraft? {
        guard let first = exchanges.first?.outcome else { return nil }
        var common = first.headers
        for exchange in exchanges {
            common = common.filter { exchange.outcome.headers[$0.key] == $0.value }
        }
        var draft = ScenarioDraft(name: first.expectation.rawValue, status: first.status, headers: common,
                                  contentType: first.fixtureContentType, expect: first.expectation)
        draft.latency = latency(exchanges)
        draft.verify = exchanges.first.map { example($0, template: template) }
        guard let fileExtension = first.shape.fileExtension else { return draft }
        let suffix = (method == "GET" ? "" : "." + method.lowercased()) + "." + fileExtension
        let folder = perIDFolder(for: template)
        let names = template.parameters.map(\.name)
        draft.body = folder + "/" + names.map { "{\($0)}" }.joined(separator: "-") + suffix
        for exchange in exchanges {
            guard let body = exchange.outcome.body else { continue }
            let values = template.values(in: exchange.segments)
            let file = folder + "/" + names.compactMap { values[$0] }.joined(separator: "-") + suffix
            plan.fixtures[file] = body.bytes
            plan.perIDFixtures.insert(file)
        }
        return draft
    }

    /// The folder of a template's per-id fixtures, its own: `/users/{id}/orders` and `/users/orders/{id}` both
    /// name `users/orders`, and names that differ only in characters the sanitizer replaces or in letter case
    /// (one file on macOS) would share files, so a later template gets `users/orders-2`.
    private mutating func perIDFolder(for template: RecordedTemplate) -> String {
        let base = RecordingNames.fixtureFolder(of: template)
        var candidate = base
        var counter = 2
        while let owner = perIDFolderOwners[candidate.lowercased()], owner != template.path {
            candidate = base + "-\(counter)"
            counter += 1
        }
        perIDFolderOwners[candidate.lowercased()] = template.path
        return candidate
    }

    /// The shape most ids share; on a tie the lower status, then the first recorded.
    private func commonShape(of outcomes: [RecordedOutcome]) -> RecordedOutcome.Shape? {
        var counts: [RecordedOutcome.Shape: Int] = [:]
        for outcome in outcomes { counts[outcome.shape, default: 0] += 1 }
        let shapes = distinct(outcomes.map(\.shape))
        return shapes.enumerated().max { left, right in
            let (l, r) = (counts[left.element] ?? 0, counts[right.element] ?? 0)
            if l != r { return l < r }
            if left.element.status != right.element.status { return left.element.status > right.element.status }
            return left.offset > right.offset
        }?.element
    }

    private mutating func scenario(_ outcome: RecordedOutcome, name: String, fixtureStem: String) -> ScenarioDraft {
        var draft = ScenarioDraft(name: name, status: outcome.status, headers: outcome.headers,
                                  contentType: outcome.fixtureContentType, expect: outcome.expectation)
        if let body = outcome.body {
            let bytes = body.bytes
            if let path = fixturePaths[bytes] {
                draft.body = path
            } else {
                let path = namer.claim(fixtureStem + "-" + name + "." + body.fileExtension, for: bytes)
                plan.fixtures[path] = bytes
                fixturePaths[bytes] = path
                draft.body = path
            }
        }
        return draft
    }

    /// The request `exchange` made, as `mock-server verify` sends it again: its path parameters, the query but for
    /// secret names, the header fields a rule may read (never credentials), a JSON body with secrets redacted.
    private func example(_ exchange: NormalizedExchange, template: RecordedTemplate) -> VerifyExample {
        var example = VerifyExample(pathParams: template.values(in: exchange.segments))
        for item in exchange.query where !redactor.isSecret(item.name) && example.query[item.name] == nil {
            example.query[item.name] = item.value
        }
        for case (.header(let name), .string(let value)) in exchange.facts { example.headers[name] = value }
        if case .json(let members) = exchange.requestBody { example.body = redactor.redact(.object(members)) }
        return example
    }

    /// The latency the exchanges' response heads took (``LatencyFit``), unless the recording leaves it out.
    private func latency(_ exchanges: [NormalizedExchange]) -> Latency? {
        keepsLatency ? LatencyFit.latency(exchanges.compactMap(\.headMs)) : nil
    }

    private mutating func addEndpoint(method: String, template: RecordedTemplate, exchanges: [NormalizedExchange],
                                      scenarios: [ScenarioDraft], requiresBearer: Bool, report: EndpointReport) {
        let base = RecordingNames.endpointID(method: method, template: template)
        var id = base
        var counter = 2
        while usedIDs.contains(id) { id = base + "\(counter)"; counter += 1 }
        usedIDs.insert(id)
        let contentType = scenarios.first { $0.body != nil }?.contentType ?? "application/json"
        plan.endpoints.append(EndpointDraft(
            id: id, domain: RecordingNames.domain(of: template), method: method, template: template,
            request: RequestInference.request(template: template, exchanges: exchanges, bearer: requiresBearer),
            contentType: contentType, scenarios: scenarios))
        var report = report
        report.id = id
        plan.reports.append(report)
    }

    private func distinct<Element: Hashable>(_ elements: [Element]) -> [Element] {
        var seen: Set<Element> = []
        return elements.filter { seen.insert($0).inserted }
    }
}
