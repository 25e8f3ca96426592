import ContractModel

/// Turns recorded exchanges into endpoints, scenarios and fixtures (``RecordingPlan``).
///
/// One endpoint per method and path template (``PathTemplating``). A templated endpoint serves its
/// most common outcome for every id from a fixture per id (`v1/items/{id}.json`); an id whose answer
/// differs (another status, kind of body, or several answers over time) gets an endpoint of its own at
/// its literal path (`/v1/items/99`), which routing prefers to the template, so every recorded request
/// is answered as it was. An endpoint with several outcomes gets one scenario per outcome
/// (``ScenarioNaming``); a literal one whose answers changed over time also gets a first, default
/// scenario, `recorded`, a sequence that plays them in the recorded order.
struct RecordingPlanner {
    private let headers: HeaderFilter
    private let redactor: SecretRedactor
    private var namer: FixtureNamer
    /// Per-id fixture folders handed out (lower-cased), each with the template path it belongs to.
    private var perIDFolderOwners: [String: String] = [:]
    private var plan = RecordingPlan()
    private var usedIDs: Set<String>

    init(headers: HeaderFilter, redactor: SecretRedactor, namer: FixtureNamer, reservedIDs: Set<String> = []) {
        self.headers = headers
        self.redactor = redactor
        self.namer = namer
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
        let templates = PathTemplating.templates(for: Set(normalized.map(\.segments)))
        var groups: [RouteKey: [NormalizedExchange]] = [:]
        for exchange in normalized {
            guard let template = templates[exchange.segments] else { continue }
            groups[RouteKey(template: template, method: exchange.method), default: []].append(exchange)
        }
        for key in groups.keys.sorted() {
            guard let members = groups[key] else { continue }
            if key.template.parameters.isEmpty {
                addLiteralEndpoint(method: key.method, template: key.template, exchanges: members)
            } else {
                addTemplatedEndpoint(method: key.method, template: key.template, exchanges: members)
            }
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

    // MARK: - Endpoints

    private mutating func addLiteralEndpoint(method: String, template: RecordedTemplate, exchanges: [NormalizedExchange]) {
        let outcomes = distinct(exchanges.map(\.outcome))
        let names = ScenarioNaming.names(for: outcomes)
        let stem = RecordingNames.fixtureFolder(of: template) + "/" + method.lowercased()
        var scenarios = ScenarioNaming.ordered(outcomes).map { outcome in
            scenario(outcome, name: names[outcome] ?? "", fixtureStem: stem)
        }
        if outcomes.count > 1 {
            let steps = exchanges.compactMap { names[$0.outcome] }
            scenarios.insert(ScenarioDraft(name: ScenarioNaming.replay, sequence: steps), at: 0)
        }
        addEndpoint(method: method, template: template, exchanges: exchanges, scenarios: scenarios)
    }

    private mutating func addTemplatedEndpoint(method: String, template: RecordedTemplate,
                                               exchanges: [NormalizedExchange]) {
        var paths: [[String]] = []
        var byPath: [[String]: [NormalizedExchange]] = [:]
        for exchange in exchanges {
            if byPath[exchange.segments] == nil { paths.append(exchange.segments) }
            byPath[exchange.segments, default: []].append(exchange)
        }
        let single = paths.filter { Set(byPath[$0, default: []].map(\.outcome)).count == 1 }
        let shape = commonShape(of: single.compactMap { byPath[$0]?.first?.outcome })
        let regular = single.filter { byPath[$0]?.first?.outcome.shape == shape }
        let exceptions = paths.filter { !regular.contains($0) }
        var scenarios: [ScenarioDraft] = []
        if let shape, let first = regular.first.flatMap({ byPath[$0]?.first?.outcome }) {
            scenarios.append(perIDScenario(method: method, template: template, shape: shape, first: first,
                                           outcomes: regular.compactMap { path in byPath[path]?.first.map { (path, $0.outcome) } }))
        }
        let others = distinct(exceptions.flatMap { byPath[$0, default: []].map(\.outcome) })
        let names = ScenarioNaming.names(for: others, taken: Set(scenarios.map(\.name)))
        let stem = RecordingNames.fixtureFolder(of: template) + "/" + method.lowercased() + "-"
            + template.parameters.map(\.name).joined(separator: "-")
        scenarios += ScenarioNaming.ordered(others).map { scenario($0, name: names[$0] ?? "", fixtureStem: stem) }
        let described = regular.isEmpty ? exchanges : regular.flatMap { byPath[$0, default: []] }
        addEndpoint(method: method, template: template, exchanges: described, scenarios: scenarios)
        for path in exceptions {
            addLiteralEndpoint(method: method, template: .literal(path), exchanges: byPath[path, default: []])
        }
    }

    /// The scenario that serves each regular id its own recorded body, from `folder/{id}.json`.
    private mutating func perIDScenario(method: String, template: RecordedTemplate, shape: RecordedOutcome.Shape,
                                        first: RecordedOutcome, outcomes: [([String], RecordedOutcome)]) -> ScenarioDraft {
        var common = first.headers
        for (_, outcome) in outcomes {
            common = common.filter { outcome.headers[$0.key] == $0.value }
        }
        var draft = ScenarioDraft(name: first.expectation.rawValue, status: shape.status, headers: common,
                                  contentType: first.fixtureContentType, expect: first.expectation)
        guard let fileExtension = shape.fileExtension else { return draft }
        let suffix = (method == "GET" ? "" : "." + method.lowercased()) + "." + fileExtension
        let folder = perIDFolder(for: template)
        let names = template.parameters.map(\.name)
        draft.body = folder + "/" + names.map { "{\($0)}" }.joined(separator: "-") + suffix
        for (path, outcome) in outcomes {
            guard let body = outcome.body else { continue }
            let values = template.values(in: path)
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
            let path = namer.claim(fixtureStem + "-" + name + "." + body.fileExtension, for: bytes)
            plan.fixtures[path] = bytes
            draft.body = path
        }
        return draft
    }

    private mutating func addEndpoint(method: String, template: RecordedTemplate, exchanges: [NormalizedExchange],
                                      scenarios: [ScenarioDraft]) {
        let base = RecordingNames.endpointID(method: method, template: template)
        var id = base
        var counter = 2
        while usedIDs.contains(id) { id = base + "\(counter)"; counter += 1 }
        usedIDs.insert(id)
        let contentType = scenarios.first { $0.body != nil }?.contentType ?? "application/json"
        plan.endpoints.append(EndpointDraft(
            id: id, domain: RecordingNames.domain(of: template), method: method, template: template,
            request: RequestInference.request(template: template, exchanges: exchanges),
            contentType: contentType, scenarios: scenarios))
    }

    private func distinct<Element: Hashable>(_ elements: [Element]) -> [Element] {
        var seen: Set<Element> = []
        return elements.filter { seen.insert($0).inserted }
    }
}
