/// The one writer of contract files: the model back to the JSON a contract file holds, defaults left out,
/// and a document to its bytes with keys in ``ContractSchema``'s order. OpenAPI import and export and the
/// recorder write through it, so every contract this package writes reads the same way, and a key the parser
/// learns is a key the writer knows.
package enum ContractWriter {
    /// The file's bytes: indented JSON, keys in ``ContractSchema/writingOrder``, names within a map sorted, so
    /// the same document always gives the same bytes.
    package static func bytes(_ document: JSONValue) -> [UInt8] {
        document.prettyPrinted(keyOrder: ContractSchema.writingOrder, plainUnder: ContractSchema.nameMaps)
    }

    /// The contract as its file writes it: what ``ContractLoader`` reads back into the same model.
    package static func document(_ contract: Contract) -> JSONValue {
        var fields: [String: JSONValue] = ["domain": .string(contract.domain)]
        if let description = contract.description { fields["description"] = .string(description) }
        if !contract.states.isEmpty { fields["states"] = .strings(contract.states) }
        if !contract.resources.isEmpty {
            fields["resources"] = .array(contract.resources.map { resource in
                Self.resource(resource, operations: contract.endpoints.filter { $0.resource?.id == resource.id })
            })
        }
        let endpoints = contract.endpoints.filter { $0.resource == nil }
        if !endpoints.isEmpty || contract.resources.isEmpty { fields["endpoints"] = .array(endpoints.map(endpoint)) }
        return .object(fields)
    }

    /// An endpoint (not a resource's operation) as a contract writes it.
    package static func endpoint(_ endpoint: ContractEndpoint) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(endpoint.id), "method": .string(endpoint.method), "path": .string(endpoint.path.description),
            "scenarios": .array(endpoint.scenarios.map(scenario)),
        ]
        if let description = endpoint.description { fields["description"] = .string(description) }
        let request = request(endpoint.request)
        if case .object(let members) = request, !members.isEmpty { fields["request"] = request }
        if endpoint.contentType != defaultContentType {
            fields["response"] = .object(["contentType": .string(endpoint.contentType)])
        }
        if let limit = endpoint.rateLimit { fields["rateLimit"] = rateLimit(limit) }
        if !endpoint.whenState.isEmpty { fields["whenState"] = .object(endpoint.whenState.mapValues(JSONValue.string)) }
        if let verify = endpoint.verify { fields["verify"] = verify.json }
        if endpoint.isWebSocket { fields["websocket"] = .bool(true) }
        if !endpoint.subprotocols.isEmpty { fields["subprotocols"] = .strings(endpoint.subprotocols) }
        return .object(fields)
    }

    /// What a request must carry, as a contract's `request` writes it (`{}` when nothing).
    package static func request(_ request: RequestRequirements) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        if !request.pathParams.isEmpty { fields["pathParams"] = fieldTypes(request.pathParams) }
        if !request.query.isEmpty { fields["query"] = fieldTypes(request.query) }
        if !request.headers.isEmpty { fields["headers"] = fieldTypes(request.headers) }
        if request.bearerAuth { fields["auth"] = .string("bearer") }
        if let body = request.body {
            fields["body"] = .object(["type": .string(body.kind.rawValue), "fields": fieldTypes(body.fields)])
        }
        return .object(fields)
    }

    /// What the parser gives an endpoint without `response.contentType`.
    package static let defaultContentType = "application/json"

    /// The scenario as a contract writes it, defaults left out.
    package static func scenario(_ scenario: Scenario) -> JSONValue {
        var fields: [String: JSONValue] = ["name": .string(scenario.name)]
        if let description = scenario.description { fields["description"] = .string(description) }
        if let rule = scenario.when.first {
            fields["when"] = scenario.when.count == 1 ? rule.json : .array(scenario.when.map(\.json))
        }
        if let sequence = scenario.sequence {
            fields["sequence"] = .strings(sequence.steps)
            if sequence.afterLast != .repeatLast { fields["afterLast"] = .string(sequence.afterLast.rawValue) }
            return .object(fields)
        }
        if scenario.proxy { fields["proxy"] = .bool(true) }
        if let status = scenario.status { fields["status"] = .integer(status) }
        if let fault = scenario.fault { fields["fault"] = .string(fault.rawValue) }
        if let body = scenario.body { fields["body"] = .string(body) }
        if let events = scenario.events {
            fields["events"] = events.json
            if events.afterLast != .close { fields["afterLast"] = .string(events.afterLast.rawValue) }
            if scenario.status == 200 { fields["status"] = nil }
        }
        if let script = scenario.webSocket { fields.merge(script.fields) { _, new in new } }
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
        if scenario.verifyStatus != .class { fields["verifyStatus"] = .string(scenario.verifyStatus.rawValue) }
        if let verify = scenario.verify { fields["verify"] = verify.json }
        return .object(fields)
    }

    /// An endpoint's rate limit as a contract writes it.
    package static func rateLimit(_ limit: RateLimit) -> JSONValue {
        .object(["limit": .integer(limit.limit), "windowSeconds": .integer(limit.windowSeconds),
                 "per": .string(limit.scope.rawValue), "retryAfter": .string(limit.retryAfter.rawValue)])
    }

    /// What the parser gives a scenario without `holdMs`.
    package static let defaultHoldMs = 10_000

    /// Field types as a contract declares them: `{"page_no": "integer", "lang": "string?"}`.
    package static func fieldTypes(_ types: [String: FieldType]) -> JSONValue {
        .object(types.mapValues { .string($0.description) })
    }

    /// The resource as a contract declares it, with the scenarios its operations add to the built-in ones.
    /// - Parameter operations: The resource's endpoints (they carry its auth and its scenarios).
    package static func resource(_ resource: Resource, operations: [ContractEndpoint]) -> JSONValue {
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
    package static func isBuiltIn(_ scenario: Scenario) -> Bool {
        if scenario.name == Resource.storeScenario { return true }
        return scenario.name == "serverErr" && scenario.status == 500 && scenario.body == nil && scenario.fault == nil
            && scenario.headers.isEmpty && scenario.delayMs == 0 && scenario.description == nil
            && scenario.contentType == nil && scenario.sequence == nil && scenario.setState == nil
            && scenario.latency == nil && scenario.bandwidth == nil && scenario.dribble == nil
            && scenario.expect == .serverErr && !scenario.isTemplate && scenario.when.isEmpty
            && scenario.verify == nil && scenario.verifyStatus == .class
    }
}
