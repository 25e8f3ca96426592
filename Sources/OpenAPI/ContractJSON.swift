import ContractModel

/// Scenarios and resources written back as a contract file writes them, for the `x-mock` extension.
enum ContractJSON {
    /// Keys in the order a person writes them in a contract; the rest follow sorted.
    static let keyOrder = [
        "domain", "id", "name", "method", "path", "idField", "idType", "type", "fields", "seed", "shape", "maxItems",
        "pathParams", "query", "status", "fault", "sequence", "afterLast", "body", "fallback", "template",
        "contentType", "headers", "auth", "delayMs", "latency", "bandwidth", "dribble", "holdMs", "setState", "expect",
        "description", "states", "rateLimit",
        "resources", "request", "response", "whenState", "scenarios", "endpoints",
    ]

    /// Keys whose values map names to values: sorted by name, not by ``keyOrder``.
    static let nameMaps: Set<String> = ["pathParams", "query", "headers", "fields", "whenState"]

    /// The scenario as a contract writes it, defaults left out.
    static func scenario(_ scenario: Scenario) -> JSONValue {
        var fields: [String: JSONValue] = ["name": .string(scenario.name)]
        if let description = scenario.description { fields["description"] = .string(description) }
        if let sequence = scenario.sequence {
            fields["sequence"] = .strings(sequence.steps)
            if sequence.afterLast != .repeatLast { fields["afterLast"] = .string(sequence.afterLast.rawValue) }
            return .object(fields)
        }
        if scenario.proxy { fields["proxy"] = .bool(true) }
        if let status = scenario.status { fields["status"] = .integer(status) }
        if let fault = scenario.fault { fields["fault"] = .string(fault.rawValue) }
        if let body = scenario.body { fields["body"] = .string(body) }
        if let fallback = scenario.fallback { fields["fallback"] = .string(fallback) }
        if scenario.isTemplate { fields["template"] = .bool(true) }
        if !scenario.headers.isEmpty { fields["headers"] = .object(scenario.headers.mapValues(JSONValue.string)) }
        if let contentType = scenario.contentType { fields["contentType"] = .string(contentType) }
        if scenario.delayMs != 0 { fields["delayMs"] = .integer(scenario.delayMs) }
        if let latency = scenario.latency { fields["latency"] = .string(latency.text) }
        if let bandwidth = scenario.bandwidth { fields["bandwidth"] = .string(bandwidth.text) }
        if let dribble = scenario.dribble {
            var pace: [String: JSONValue] = ["pieces": .integer(dribble.pieces), "overMs": .integer(dribble.overMs)]
            if dribble.chunked { pace["chunked"] = .bool(true) }
            fields["dribble"] = .object(pace)
        }
        if scenario.holdMs != defaultHoldMs { fields["holdMs"] = .integer(scenario.holdMs) }
        if let state = scenario.setState { fields["setState"] = .string(state) }
        fields["expect"] = .string(scenario.expect.rawValue)
        return .object(fields)
    }

    /// An endpoint's rate limit as a contract writes it.
    static func rateLimit(_ limit: RateLimit) -> JSONValue {
        .object(["limit": .integer(limit.limit), "windowSeconds": .integer(limit.windowSeconds),
                 "per": .string(limit.scope.rawValue), "retryAfter": .string(limit.retryAfter.rawValue)])
    }

    /// What the parser gives a scenario without `holdMs`.
    static let defaultHoldMs = 10_000

    /// Field types as a contract declares them: `{"page_no": "integer", "lang": "string?"}`.
    static func fieldTypes(_ types: [String: FieldType]) -> JSONValue {
        .object(types.mapValues { .string($0.description) })
    }

    /// The resource as a contract declares it, with the scenarios its operations add to the built-in ones.
    /// - Parameter operations: The resource's endpoints (they carry its auth and its scenarios).
    static func resource(_ resource: Resource, operations: [ContractEndpoint]) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(resource.id), "path": .string(resource.path.description),
            "idType": .string(resource.idType.rawValue), "fields": fieldTypes(resource.fields),
        ]
        if resource.idField != "id" { fields["idField"] = .string(resource.idField) }
        if let seed = resource.seedFile { fields["seed"] = .string(seed) }
        if resource.shape != .bare { fields["shape"] = .string(resource.shape.rawValue) }
        if resource.maximumItems != 10_000 { fields["maxItems"] = .integer(resource.maximumItems) }
        if let description = resource.description { fields["description"] = .string(description) }
        if operations.contains(where: \.request.bearerAuth) { fields["auth"] = .string("bearer") }
        var byOperation: [String: JSONValue] = [:]
        for endpoint in operations {
            guard let operation = endpoint.resource?.operation else { continue }
            let added = endpoint.scenarios.filter { !isBuiltIn($0) }
            if !added.isEmpty { byOperation[operation.rawValue] = .array(added.map(scenario)) }
        }
        if !byOperation.isEmpty { fields["scenarios"] = .object(byOperation) }
        return .object(fields)
    }

    /// Whether a resource operation's scenario is one the parser adds by itself: `store`, or the plain
    /// `serverErr` (a 500 without a body).
    static func isBuiltIn(_ scenario: Scenario) -> Bool {
        if scenario.name == Resource.storeScenario { return true }
        return scenario.name == "serverErr" && scenario.status == 500 && scenario.body == nil && scenario.fault == nil
            && scenario.headers.isEmpty && scenario.delayMs == 0 && scenario.description == nil
            && scenario.contentType == nil && scenario.sequence == nil && scenario.setState == nil
            && scenario.latency == nil && scenario.bandwidth == nil && scenario.dribble == nil
            && scenario.expect == .serverErr && !scenario.isTemplate
    }
}
