extension ContractParser {
    // MARK: - Resources

    /// Reads `resources` and makes each operation an endpoint of its own, so routing, scenarios, the admin
    /// API and the journal treat it like any other.
    mutating func parseResources(_ value: JSONValue?, domain: String) -> (resources: [Resource], endpoints: [ContractEndpoint]) {
        guard let list = array(value, at: "$.resources", required: false) else { return ([], []) }
        var resources: [Resource] = []
        var endpoints: [ContractEndpoint] = []
        for (index, item) in list.enumerated() {
            guard let resource = parseResource(item, at: "$.resources[\(index)]") else { continue }
            resources.append(resource.resource)
            endpoints += Self.operations(of: resource.resource, domain: domain, bearerAuth: resource.bearerAuth,
                                         scenarios: resource.scenarios)
        }
        checkUnique(resources.map(\.id), at: "$.resources", what: "resource id")
        return (resources, endpoints)
    }

    private mutating func parseResource(_ value: JSONValue, at path: String)
        -> (resource: Resource, bearerAuth: Bool, scenarios: [ResourceOperation: [Scenario]])?
    {
        guard let fields = object(value, at: path, keys: ContractSchema.keys(of: .resource)) else { return nil }
        let id = requiredString(fields["id"], at: path + ".id")
        if let id, !Self.isWord(id) || id.contains(".") { report(path + ".id", "a resource id is one word, without dots") }
        var template: PathTemplate?
        if let text = requiredString(fields["path"], at: path + ".path") {
            template = PathTemplate(text)
            if template == nil || !(template?.parameterNames.isEmpty ?? true) {
                report(path + ".path", "\"\(text)\" must start with / and have no {parameters}: it is the collection's path")
                template = nil
            }
        }
        let idField = optionalString(fields["idField"], at: path + ".idField") ?? "id"
        var idType = Resource.IDType.integer
        if let text = optionalString(fields["idType"], at: path + ".idType") {
            if let type = Resource.IDType(rawValue: text) { idType = type } else {
                report(path + ".idType", "\"\(text)\" is not one of integer, uuid")
            }
        }
        let types = fieldTypes(fields["fields"], at: path + ".fields")
        if fields["fields"] == nil { report(path + ".fields", "is required: the item's fields and their types") }
        if types[idField] != nil {
            report(path + ".fields." + idField, "is the id field; its type is idType")
        }
        for (name, type) in types.sorted(by: { $0.key < $1.key }) where type.kind == .file || type.kind == .json {
            report(path + ".fields." + name, "a resource field is string, integer, number or boolean, not \(type.kind.rawValue)")
        }
        var shape = Resource.Shape.bare
        if let text = optionalString(fields["shape"], at: path + ".shape") {
            if let value = Resource.Shape(rawValue: text) { shape = value } else {
                report(path + ".shape", "\"\(text)\" is not one of bare, envelope")
            }
        }
        let seed = optionalString(fields["seed"], at: path + ".seed")
        if let seed, !FixturePath.staysInside(seed) || !FixturePath.placeholders(in: seed).isEmpty {
            report(path + ".seed", "\"\(seed)\" must be a relative path inside the fixtures folder, without {placeholders}")
        }
        let maximumItems = integer(fields["maxItems"], at: path + ".maxItems", in: 1...1_000_000) ?? 10_000
        var bearerAuth = false
        if let auth = fields["auth"] {
            if case .string("bearer") = auth { bearerAuth = true } else { report(path + ".auth", "must be \"bearer\"") }
        }
        let description = optionalString(fields["description"], at: path + ".description")
        let scenarios = parseOperationScenarios(fields["scenarios"], at: path + ".scenarios")
        guard let id, let template else { return nil }
        let resource = Resource(id: id, path: template, idField: idField, idType: idType, fields: types,
                                seedFile: seed, shape: shape, maximumItems: maximumItems, description: description)
        return (resource, bearerAuth, scenarios)
    }

    /// Each operation's scenarios: `store` (the default: the store answers), `serverErr` (a 500, for a
    /// client's error path), and those the contract adds in `"scenarios": {"create": [...], ...}`, written as
    /// an endpoint's are. A scenario named `serverErr` replaces the built-in one; `store` is the store's own.
    private mutating func parseOperationScenarios(_ value: JSONValue?, at path: String) -> [ResourceOperation: [Scenario]] {
        var written: [String: JSONValue] = [:]
        if let value {
            if case .object(let byOperation) = value { written = byOperation } else {
                report(path, "must be an object from operation (\(ResourceOperation.names)) to a list of scenarios")
            }
        }
        for name in written.keys.sorted() where ResourceOperation(rawValue: name) == nil {
            report(path + "." + name, "\"\(name)\" is not an operation; one of \(ResourceOperation.names)")
        }
        var result: [ResourceOperation: [Scenario]] = [:]
        for operation in ResourceOperation.allCases {
            let at = path + "." + operation.rawValue
            var own: [Scenario] = []
            if let list = array(written[operation.rawValue], at: at, required: false) {
                let parameters = FixtureParameters(path: operation.route.isItem ? ["id"] : [], query: [])
                for (index, item) in list.enumerated() {
                    guard let scenario = parseScenario(item, parameters: parameters, at: at + "[\(index)]") else { continue }
                    if scenario.name == Resource.storeScenario {
                        report(at + "[\(index)].name", "\"store\" is the store's own scenario; name this one differently")
                    } else {
                        own.append(scenario)
                    }
                }
                checkUnique(own.map(\.name), at: at, what: "scenario name")
            }
            let builtIn = Self.builtInScenarios(of: operation).filter { builtIn in !own.contains { $0.name == builtIn.name } }
            result[operation] = resolveSequences(builtIn + own, at: at, written: builtIn.count...)
        }
        return result
    }

    private static func builtInScenarios(of operation: ResourceOperation) -> [Scenario] {
        let store = Scenario(name: Resource.storeScenario, status: operation == .create ? 201 : operation == .delete ? 204 : 200,
                             body: nil, fallback: nil, isTemplate: false, headers: [:], contentType: nil, fault: nil,
                             delayMs: 0, holdMs: 10_000, expect: .success,
                             description: "the resource's store answers", sequence: nil, setState: nil)
        let serverErr = Scenario(name: "serverErr", status: 500, body: nil, fallback: nil, isTemplate: false,
                                 headers: [:], contentType: nil, fault: nil, delayMs: 0, holdMs: 10_000,
                                 expect: .serverErr, description: nil, sequence: nil, setState: nil)
        return [store, serverErr]
    }

    /// One endpoint per operation, so routing, scenarios, the admin API and the journal treat it like any other.
    private static func operations(of resource: Resource, domain: String, bearerAuth: Bool,
                                   scenarios: [ResourceOperation: [Scenario]]) -> [ContractEndpoint] {
        ResourceOperation.allCases.map { operation in
            let (method, isItem) = operation.route
            var request = RequestRequirements()
            request.bearerAuth = bearerAuth
            var path = resource.path
            if isItem {
                path = PathTemplate(resource.path.description + "/{id}") ?? resource.path
                request.pathParams = ["id": FieldType(kind: resource.idType == .integer ? .integer : .string)]
            }
            var endpoint = ContractEndpoint(id: resource.id + "." + operation.rawValue, domain: domain, method: method,
                                            path: path, request: request, contentType: "application/json",
                                            scenarios: scenarios[operation] ?? [], whenState: [:])
            endpoint.resource = ResourceBinding(id: resource.id, operation: operation)
            return endpoint
        }
    }
}
