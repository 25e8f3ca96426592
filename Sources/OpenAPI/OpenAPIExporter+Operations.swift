import ContractModel

extension OpenAPIExporter {
    /// An ordinary endpoint's Operation Object.
    func operation(for endpoint: ContractEndpoint) -> JSONValue {
        var operation = commonFields(of: endpoint)
        if let body = endpoint.request.body { operation["requestBody"] = requestBody(body) }
        var responses: [Int: ResponseDraft] = [:]
        addScenarioResponses(of: endpoint, to: &responses)
        addMockResponses(of: endpoint, to: &responses)
        operation["responses"] = Self.responsesJSON(responses)
        var mock: [String: JSONValue] = [
            "scenarios": .array(endpoint.scenarios.map(ContractWriter.scenario)),
            "contentType": .string(endpoint.contentType),
        ]
        if !endpoint.whenState.isEmpty { mock["whenState"] = .object(endpoint.whenState.mapValues(JSONValue.string)) }
        if let limit = endpoint.rateLimit { mock["rateLimit"] = ContractWriter.rateLimit(limit) }
        if endpoint.isWebSocket { mock["websocket"] = .bool(true) }
        if !endpoint.subprotocols.isEmpty { mock["subprotocols"] = .strings(endpoint.subprotocols) }
        let ignored = endpoint.request.headers.filter { MockExtension.headersOpenAPIIgnores.contains($0.key.lowercased()) }
        if !ignored.isEmpty { mock["requestHeaders"] = ContractWriter.fieldTypes(ignored) }
        operation[MockExtension.key] = .object(mock)
        return .object(operation)
    }

    /// What every operation has: id, tag, description, parameters, security.
    func commonFields(of endpoint: ContractEndpoint, extraParameters: [JSONValue] = []) -> [String: JSONValue] {
        var operation: [String: JSONValue] = [
            "operationId": .string(endpoint.id),
            "tags": .strings([endpoint.domain]),
            "parameters": .array(parameters(of: endpoint) + extraParameters + mockParameters(of: endpoint)),
        ]
        if let description = endpoint.description { operation["description"] = .string(description) }
        if endpoint.request.bearerAuth { operation["security"] = .array([.object([Self.bearerScheme: .array([])])]) }
        return operation
    }

    /// Path, query and header parameters with their types; a path parameter the contract does not type
    /// is a string. A parameter that names a fixture file (`products/{id}.json`) lists the values that have
    /// one as its examples.
    private func parameters(of endpoint: ContractEndpoint) -> [JSONValue] {
        let request = endpoint.request
        let values = fixtureValues(of: endpoint)
        var parameters: [JSONValue] = endpoint.path.parameterNames.map { name in
            Self.parameter(name, in: "path", type: request.pathParams[name] ?? FieldType(kind: .string),
                           examples: values[name] ?? [])
        }
        for (name, type) in request.query.sorted(by: { $0.key < $1.key }) {
            parameters.append(Self.parameter(name, in: "query", type: type, examples: values[name] ?? []))
        }
        for (name, type) in request.headers.sorted(by: { $0.key < $1.key })
        where !MockExtension.headersOpenAPIIgnores.contains(name.lowercased()) {
            parameters.append(Self.parameter(name, in: "header", type: type))
        }
        return parameters
    }

    static func parameter(_ name: String, in location: String, type: FieldType, description: String? = nil,
                          examples: [String] = []) -> JSONValue {
        var parameter: [String: JSONValue] = [
            "name": .string(name), "in": .string(location),
            "required": .bool(location == "path" || !type.isOptional), "schema": type.schema(in: .text),
        ]
        if let description { parameter["description"] = .string(description) }
        if !examples.isEmpty {
            parameter["examples"] = .object(Dictionary(uniqueKeysWithValues: examples.map { value in
                let number = type.kind == .integer ? Int(value).map(JSONValue.integer) : nil
                let example: JSONValue = .object(["summary": .string("has a fixture"), "value": number ?? .string(value)])
                return (ImportNames.word(value), example)
            }))
        }
        return .object(parameter)
    }

    /// The values of each parameter that a fixture file exists for, from the file names a one-placeholder
    /// pattern (`products/{id}.json`, `page-{page_no}.json`) reaches.
    private func fixtureValues(of endpoint: ContractEndpoint) -> [String: [String]] {
        var values: [String: Set<String>] = [:]
        for body in endpoint.scenarios.compactMap(\.body) {
            let names = FixturePath.placeholders(in: body)
            guard names.count == 1, let name = names.first,
                  let pattern = body.split(separator: "/").last.map(String.init),
                  let open = pattern.firstRange(of: "{" + name + "}") else { continue }
            let prefix = pattern[..<open.lowerBound], suffix = pattern[open.upperBound...]
            for file in FixtureChecker.reachableFiles(body, of: endpoint, root: contracts.fixturesDirectory) ?? [] {
                let fileName = file.split(separator: "/").last.map(String.init) ?? file
                guard fileName.hasPrefix(prefix), fileName.hasSuffix(suffix),
                      fileName.count > prefix.count + suffix.count else { continue }
                values[name, default: []].insert(String(fileName.dropFirst(prefix.count).dropLast(suffix.count)))
            }
        }
        return values.mapValues { $0.sorted() }
    }

    /// `X-Mock-Scenario` and `X-Mock-Session`, optional on every operation.
    private func mockParameters(of endpoint: ContractEndpoint) -> [JSONValue] {
        let names = endpoint.scenarios.map(\.name).joined(separator: ", ")
        let scenario = Self.parameter(
            MockExtension.scenarioHeader, in: "header", type: FieldType(kind: .string, isOptional: true),
            description: "The mock's scenario to play for this request: \(names) (the first is the default). "
                + "An unknown name is a 400 that lists them.")
        let session = Self.parameter(
            MockExtension.sessionHeader, in: "header", type: FieldType(kind: .string, isOptional: true),
            description: "The mock session whose scenario choices, states, sequences and resources the request "
                + "uses (at most 128 bytes); without it, the default session.")
        guard case .object(var fields) = session, case .object(var schema)? = fields["schema"] else {
            return [scenario, session]
        }
        schema["maxLength"] = .integer(128)
        fields["schema"] = .object(schema)
        return [scenario, .object(fields)]
    }

    /// The Request Body Object for a JSON, form or multipart body.
    func requestBody(_ body: BodyRequirement) -> JSONValue {
        let carrier: FieldType.Carrier = body.kind == .json ? .json : body.kind == .multipart ? .multipart : .text
        var schema: [String: JSONValue] = [
            "type": .string("object"),
            "properties": .object(body.fields.mapValues { $0.schema(in: carrier) }),
        ]
        let required = body.fields.filter { !$0.value.isOptional }.keys.sorted()
        if !required.isEmpty { schema["required"] = .strings(required) }
        var media: [String: JSONValue] = ["schema": .object(schema)]
        let jsonParts = body.fields.filter { $0.value.kind == .json }.keys.sorted()
        if body.kind == .multipart && !jsonParts.isEmpty {
            media["encoding"] = .object(Dictionary(uniqueKeysWithValues: jsonParts.map {
                ($0, JSONValue.object(["contentType": .string("application/json")]))
            }))
        }
        let mediaType = switch body.kind {
        case .json: "application/json"
        case .form: "application/x-www-form-urlencoded"
        case .multipart: "multipart/form-data"
        }
        return .object(["required": .bool(true), "content": .object([mediaType: .object(media)])])
    }

    /// Each scenario that answers with a status, grouped by it: its fixture as an example, its headers, and
    /// for a success a schema inferred from the fixtures.
    func addScenarioResponses(of endpoint: ContractEndpoint, to responses: inout [Int: ResponseDraft]) {
        for (index, scenario) in endpoint.scenarios.enumerated() {
            // A resource's `store` is documented by what the store answers (OpenAPIExporter+Resources).
            let isStore = endpoint.resource != nil && scenario.name == Resource.storeScenario
            if scenario.webSocket != nil {
                var draft = responses[101] ?? ResponseDraft()
                draft.notes.append("Scenario `\(scenario.name)`\(index == 0 ? " (the default)" : ""): Switching Protocols "
                    + "to a WebSocket (RFC 6455) that the operation's x-mock scenario scripts"
                    + (endpoint.subprotocols.isEmpty ? "." : ", with the subprotocols " + endpoint.subprotocols.joined(separator: ", ") + "."))
                responses[101] = draft
                continue
            }
            guard let status = scenario.status, !isStore else { continue }
            var draft = responses[status] ?? ResponseDraft()
            var note = "Scenario `\(scenario.name)`\(index == 0 ? " (the default)" : "")"
            if let description = scenario.description { note += ": " + description }
            for (name, value) in scenario.headers.sorted(by: { $0.key < $1.key }) {
                draft.headers[name] = ResponseDraft.header(example: value)
            }
            if let events = scenario.events {
                draft.notes.append(note + " (server-sent events).")
                var media = draft.content[Self.eventStream] ?? ResponseDraft.MediaDraft()
                media.servedByScenarios = true
                media.schemaSources = nil
                media.schema = .object(["type": .string("string")])
                switch events.source {
                case .inline(let list):
                    let stream = list.map { String(decoding: $0.encoded(), as: UTF8.self) }.joined()
                    media.examples[scenario.name] = .object(["value": .string(stream)])
                case .fixture(let path):
                    media.examples[scenario.name] = .object(["summary": .string("the events of the fixture \(path)")])
                }
                draft.content[Self.eventStream] = media
                responses[status] = draft
                continue
            }
            guard let body = scenario.body else {
                draft.notes.append(note + " (an empty body).")
                responses[status] = draft
                continue
            }
            if scenario.isTemplate { note += " (a template, filled in per request)" }
            if !FixturePath.placeholders(in: body).isEmpty { note += " (the fixture \(body), by the request)" }
            draft.notes.append(note + ".")
            let mediaType = scenario.contentType ?? endpoint.contentType
            var media = draft.content[mediaType] ?? ResponseDraft.MediaDraft()
            media.servedByScenarios = true
            let bodyFiles = FixturePath.placeholders(in: body).isEmpty
                ? [body] : FixtureChecker.reachableFiles(body, of: endpoint, root: contracts.fixturesDirectory) ?? []
            if let first = bodyFiles.first ?? scenario.fallback, let reference = fixtures.reference(to: first) {
                media.examples[scenario.name] = reference
            }
            if MediaType.isText(mediaType) {
                media.schema = .object(["type": .string("string")])
            }
            if scenario.expect == .success && (200...299).contains(status) && MediaType.isJSON(mediaType) {
                let files = FixtureExamples.files(of: scenario, endpoint: endpoint, root: contracts.fixturesDirectory)
                if scenario.isTemplate || files.isEmpty || !files.allSatisfy(fixtures.isJSON) {
                    media.schemaSources = nil
                } else {
                    media.schemaSources? += files.compactMap(fixtures.value(of:))
                }
            }
            draft.content[mediaType] = media
            responses[status] = draft
        }
    }

    /// The media type of a server-sent event stream.
    static let eventStream = "text/event-stream"

    /// The answers the mock server gives by itself: 400 for a request that breaks the contract (or names
    /// an unknown scenario), 401 without a bearer token, 404 for a fixture path no file matches, 500 for a
    /// template that cannot be filled in.
    func addMockResponses(of endpoint: ContractEndpoint, to responses: inout [Int: ResponseDraft]) {
        responses[400, default: ResponseDraft()].addMockError(
            "The mock's own: the request breaks the contract (its violations listed), or X-Mock-Scenario names "
                + "no scenario of the endpoint, or X-Mock-Session is longer than 128 bytes.")
        if endpoint.request.bearerAuth {
            responses[401, default: ResponseDraft()].addMockError("The mock's own: no bearer token.")
        }
        if endpoint.scenarios.contains(where: { $0.body.map(FixturePath.placeholders(in:))?.isEmpty == false }) {
            responses[404, default: ResponseDraft()].addMockError(
                "The mock's own: no fixture file for the request's parameters.")
        }
        if endpoint.isWebSocket {
            responses[426, default: ResponseDraft()].addMockError(
                "The mock's own: a request without Upgrade: websocket, or with a Sec-WebSocket-Version other than 13.")
        }
        if endpoint.scenarios.contains(where: \.isTemplate) {
            responses[500, default: ResponseDraft()].addMockError(
                "The mock's own: a template placeholder without a value or a default.")
        }
    }

    static func responsesJSON(_ responses: [Int: ResponseDraft]) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: responses.map { (String($0.key), $0.value.json()) }))
    }
}
