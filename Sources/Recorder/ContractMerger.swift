import ContractModel

/// Adds recorded endpoints and scenarios to contract documents a person may have written, changing
/// nothing that is there: an endpoint with the same method and path shape gets the recorded scenarios it
/// lacks (placeholders renamed to its parameter names; a scenario equal to one it has, name aside, is
/// not added again; a name it already uses gets a number), at the end, so its default stays; an endpoint
/// it lacks joins the file of its domain, or a new `<domain>.json`.
struct ContractMerger {
    /// Contract documents by file name (inside the contracts folder).
    private(set) var documents: [String: JSONValue]
    /// The files ``merge(_:)`` changed or created.
    private(set) var changed: Set<String> = []
    private(set) var addedEndpoints = 0
    private(set) var addedScenarios = 0

    init(documents: [String: JSONValue]) {
        self.documents = documents
    }

    /// Every endpoint id the documents use.
    var endpointIDs: Set<String> {
        Set(documents.values.flatMap { endpoints(of: $0).compactMap { $0["id"]?.text } })
    }

    mutating func merge(_ drafts: [EndpointDraft]) {
        for draft in drafts {
            if let (file, index) = existingEndpoint(for: draft) {
                mergeScenarios(of: draft, into: file, at: index)
            } else {
                add(draft)
            }
        }
    }

    // MARK: - Endpoints

    private func endpoints(of document: JSONValue) -> [[String: JSONValue]] {
        guard case .object(let root) = document, case .array(let list)? = root["endpoints"] else { return [] }
        return list.compactMap { if case .object(let fields) = $0 { fields } else { nil } }
    }

    private func existingEndpoint(for draft: EndpointDraft) -> (String, Int)? {
        let route = ContractDocument.route(method: draft.method, path: draft.template.path)
        for file in documents.keys.sorted() {
            guard case .object(let root)? = documents[file], case .array(let list)? = root["endpoints"] else { continue }
            for (index, item) in list.enumerated() {
                guard case .object(let fields) = item, let method = fields["method"]?.text,
                      let path = fields["path"]?.text else { continue }
                if ContractDocument.route(method: method, path: path) == route { return (file, index) }
            }
        }
        return nil
    }

    private mutating func add(_ draft: EndpointDraft) {
        let file = documents.keys.sorted().first { name in
            if case .object(let root)? = documents[name], root["domain"]?.text == draft.domain { true } else { false }
        } ?? freeFileName(for: draft.domain)
        var root: [String: JSONValue] = if case .object(let fields)? = documents[file] { fields } else {
            ["domain": .string(draft.domain), "description": .string("Recorded with mock-server record.")]
        }
        var list: [JSONValue] = if case .array(let items)? = root["endpoints"] { items } else { [] }
        list.append(draft.json)
        root["endpoints"] = .array(list)
        documents[file] = .object(root)
        changed.insert(file)
        addedEndpoints += 1
        addedScenarios += draft.scenarios.count
    }

    private func freeFileName(for domain: String) -> String {
        var name = domain + ".json"
        var counter = 2
        while documents[name] != nil { name = domain + "-\(counter).json"; counter += 1 }
        return name
    }

    // MARK: - Scenarios

    private mutating func mergeScenarios(of draft: EndpointDraft, into file: String, at index: Int) {
        guard case .object(var root)? = documents[file], case .array(var list)? = root["endpoints"],
              case .object(var endpoint) = list[index] else { return }
        var scenarios: [JSONValue] = if case .array(let items)? = endpoint["scenarios"] { items } else { [] }
        let contentType = (endpoint["response"].flatMap { if case .object(let r) = $0 { r["contentType"]?.text } else { nil } })
            ?? "application/json"
        let renames = placeholderRenames(from: draft.template, to: endpoint["path"]?.text ?? "")
        var nameMap: [String: String] = [:]
        let ordered = draft.scenarios.filter { $0.sequence == nil } + draft.scenarios.filter { $0.sequence != nil }
        var added = 0
        for var scenario in ordered {
            scenario.body = scenario.body.map { Self.rename($0, renames) }
            scenario.when = scenario.when.map { Self.rename($0, renames) }
            if var verify = scenario.verify {
                verify.pathParams = Dictionary(uniqueKeysWithValues: verify.pathParams.map { (renames[$0.key] ?? $0.key, $0.value) })
                scenario.verify = verify
            }
            scenario.sequence = scenario.sequence?.map { nameMap[$0] ?? $0 }
            let candidate = scenario.json(endpointContentType: contentType)
            if let same = scenarios.first(where: { Self.unnamed($0) == Self.unnamed(candidate) }) {
                nameMap[scenario.name] = same.name
                continue
            }
            let names = Set(scenarios.compactMap(\.name))
            let original = scenario.name
            let base = String(original.reversed().drop(while: \.isNumber).reversed())
            var counter = 2
            while names.contains(scenario.name) { scenario.name = base + "\(counter)"; counter += 1 }
            nameMap[original] = scenario.name
            scenarios.append(scenario.json(endpointContentType: contentType))
            added += 1
        }
        guard added > 0 else { return }
        endpoint["scenarios"] = .array(scenarios)
        list[index] = .object(endpoint)
        root["endpoints"] = .array(list)
        documents[file] = .object(root)
        changed.insert(file)
        addedScenarios += added
    }

    /// Our parameter names to the existing endpoint's, position by position.
    private func placeholderRenames(from template: RecordedTemplate, to path: String) -> [String: String] {
        guard let existing = PathTemplate(path) else { return [:] }
        var renames: [String: String] = [:]
        for (ours, theirs) in zip(template.segments, existing.segments) {
            if case .parameter(let name, _) = ours, case .parameter(let other) = theirs { renames[name] = other }
        }
        return renames
    }

    private static func rename(_ body: String, _ renames: [String: String]) -> String {
        var result = ""
        var rest = Substring(body)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            result += rest[..<open] + "{" + (renames[name] ?? name) + "}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// `rule` with its path parameters under the existing endpoint's names.
    private static func rename(_ rule: RequestRule, _ renames: [String: String]) -> RequestRule {
        RequestRule(conditions: rule.conditions.map { condition in
            guard case .pathParameter(let name) = condition.source, let other = renames[name] else { return condition }
            return RuleCondition(source: .pathParameter(other), matcher: condition.matcher)
        })
    }

    private static func unnamed(_ scenario: JSONValue) -> JSONValue {
        guard case .object(var fields) = scenario else { return scenario }
        fields["name"] = nil
        return .object(fields)
    }
}
