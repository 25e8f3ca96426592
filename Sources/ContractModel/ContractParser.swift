/// Reads one contract document into the model, collecting every problem instead of stopping at the first.
///
/// Each object is checked for unknown keys, so a typo such as `"stauts"` is an error, never ignored.
/// Scenarios are read in `ContractParser+Scenarios.swift`, typed values in `ContractParser+Readers.swift`.
struct ContractParser {
    let file: String
    var problems: [ContractProblem] = []
    /// The domain's declared states, read before its endpoints so that they can name them.
    var states: [String] = []

    init(file: String) { self.file = file }

    mutating func parse(_ document: JSONValue) -> Contract? {
        guard let root = object(document, at: "$", keys: ContractSchema.keys(of: .contract))
        else {
            return nil
        }
        let domain = requiredString(root["domain"], at: "$.domain")
        states = parseStates(root["states"], at: "$.states")
        var endpoints: [ContractEndpoint] = []
        let (resources, resourceEndpoints) = parseResources(root["resources"], domain: domain ?? "")
        if let list = array(root["endpoints"], at: "$.endpoints", required: resources.isEmpty) {
            if list.isEmpty && resources.isEmpty { report("$.endpoints", "must list at least one endpoint") }
            for (index, value) in list.enumerated() {
                if let endpoint = parseEndpoint(value, domain: domain ?? "", at: "$.endpoints[\(index)]") {
                    endpoints.append(endpoint)
                }
            }
        }
        checkUnique(endpoints.map(\.id), at: "$.endpoints", what: "endpoint id")
        let description = optionalString(root["description"], at: "$.description")
        guard let domain else { return nil }
        return Contract(domain: domain, file: file, states: states, endpoints: endpoints + resourceEndpoints,
                        resources: resources, description: description)
    }

    private mutating func parseStates(_ value: JSONValue?, at path: String) -> [String] {
        guard let list = array(value, at: path, required: false) else { return [] }
        if list.isEmpty { report(path, "must name at least one state (the first is the initial one), or be left out") }
        var names: [String] = []
        for (index, item) in list.enumerated() {
            guard let name = optionalString(item, at: path + "[\(index)]") else { continue }
            if !Self.isWord(name) { report(path + "[\(index)]", "a state is a non-empty word without spaces") }
            names.append(name)
        }
        checkUnique(names, at: path, what: "state")
        return names
    }

    // MARK: - Endpoints

    private static let methods: Set = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    private mutating func parseEndpoint(_ value: JSONValue, domain: String, at path: String) -> ContractEndpoint? {
        guard let fields = object(value, at: path, keys: ContractSchema.keys(of: .endpoint)) else { return nil }
        let id = requiredString(fields["id"], at: path + ".id")
        let method = requiredString(fields["method"], at: path + ".method")
        if let method, !Self.methods.contains(method) {
            report(path + ".method", "\"\(method)\" is not one of \(Self.methods.sorted().joined(separator: ", "))")
        }
        var template: PathTemplate?
        if let text = requiredString(fields["path"], at: path + ".path") {
            template = PathTemplate(text)
            if template == nil {
                report(path + ".path", "\"\(text)\" must start with / and use {name} only as a whole segment")
            }
        }
        let request = parseRequest(fields["request"], template: template, at: path + ".request")
        let contentType = parseResponse(fields["response"], at: path + ".response")
        let isWebSocket = optionalBool(fields["websocket"], at: path + ".websocket") ?? false
        if isWebSocket, let method, method != "GET" {
            report(path + ".method", "a WebSocket endpoint is opened with GET, not \(method)")
        }
        if fields["subprotocols"] != nil && !isWebSocket {
            report(path + ".subprotocols", "belongs to an endpoint with \"websocket\": true")
        }
        let subprotocols = parseSubprotocols(fields["subprotocols"], at: path + ".subprotocols")
        var scenarios: [Scenario] = []
        if let list = array(fields["scenarios"], at: path + ".scenarios", required: true) {
            if list.isEmpty { report(path + ".scenarios", "must list at least one scenario; the first is the default") }
            let parameters = FixtureParameters(path: template?.parameterNames ?? [], query: Array(request.query.keys),
                                               request: request, isWebSocket: isWebSocket)
            for (index, value) in list.enumerated() {
                if let scenario = parseScenario(value, parameters: parameters, at: path + ".scenarios[\(index)]") {
                    scenarios.append(scenario)
                }
            }
        }
        checkUnique(scenarios.map(\.name), at: path + ".scenarios", what: "scenario name")
        scenarios = resolveSequences(scenarios, at: path + ".scenarios")
        let whenState = parseWhenState(fields["whenState"], scenarios: scenarios, at: path + ".whenState")
        let rateLimit = parseRateLimit(fields["rateLimit"], at: path + ".rateLimit")
        let description = optionalString(fields["description"], at: path + ".description")
        let verify = parseVerify(fields["verify"], parameters: template?.parameterNames ?? [], at: path + ".verify")
        guard let id, let method, Self.methods.contains(method), let template else { return nil }
        var endpoint = ContractEndpoint(id: id, domain: domain, method: method, path: template, request: request,
                                        contentType: contentType, scenarios: scenarios, whenState: whenState,
                                        description: description)
        endpoint.rateLimit = rateLimit
        endpoint.verify = verify
        endpoint.isWebSocket = isWebSocket
        endpoint.subprotocols = subprotocols
        return endpoint
    }

    /// `{"limit": 10, "windowSeconds": 60, "per": "session", "retryAfter": "seconds"}`.
    private mutating func parseRateLimit(_ value: JSONValue?, at path: String) -> RateLimit? {
        guard let value else { return nil }
        guard let fields = object(value, at: path, keys: ContractSchema.keys(of: .rateLimit)) else { return nil }
        if fields["limit"] == nil { report(path + ".limit", "is required: the requests allowed per window") }
        let limit = integer(fields["limit"], at: path + ".limit", in: 1...1_000_000)
        let window = integer(fields["windowSeconds"], at: path + ".windowSeconds", in: 1...86_400) ?? 60
        var scope = RateLimit.Scope.session
        if let text = optionalString(fields["per"], at: path + ".per") {
            if let value = RateLimit.Scope(rawValue: text) { scope = value } else {
                report(path + ".per", "\"\(text)\" is not one of session, global")
            }
        }
        var form = RateLimit.RetryAfterForm.seconds
        if let text = optionalString(fields["retryAfter"], at: path + ".retryAfter") {
            if let value = RateLimit.RetryAfterForm(rawValue: text) { form = value } else {
                report(path + ".retryAfter", "\"\(text)\" is not one of seconds, date")
            }
        }
        guard let limit else { return nil }
        return RateLimit(limit: limit, windowSeconds: window, scope: scope, retryAfter: form)
    }

    private mutating func parseWhenState(_ value: JSONValue?, scenarios: [Scenario], at path: String) -> [String: String] {
        let map = stringMap(value, at: path)
        guard !map.isEmpty else { return [:] }
        guard !states.isEmpty else {
            report(path, "the contract declares no states; add \"states\": [...] at its top level")
            return [:]
        }
        for (state, scenario) in map.sorted(by: { $0.key < $1.key }) {
            if !states.contains(state) {
                report(path + "." + state, "unknown state \"\(state)\"; declared: " + states.joined(separator: ", "))
            }
            if !scenarios.contains(where: { $0.name == scenario }) {
                report(path + "." + state, "unknown scenario \"\(scenario)\"; the endpoint has: "
                    + scenarios.map(\.name).joined(separator: ", "))
            }
        }
        return map
    }

    private mutating func parseRequest(_ value: JSONValue?, template: PathTemplate?, at path: String)
        -> RequestRequirements
    {
        var request = RequestRequirements()
        guard let value,
              let fields = object(value, at: path, keys: ContractSchema.keys(of: .request))
        else { return request }
        request.query = fieldTypes(fields["query"], at: path + ".query")
        request.headers = fieldTypes(fields["headers"], at: path + ".headers")
        request.pathParams = fieldTypes(fields["pathParams"], at: path + ".pathParams")
        if let template {
            for name in request.pathParams.keys.sorted() where !template.parameterNames.contains(name) {
                report(path + ".pathParams." + name, "is not a parameter of the path \(template)")
            }
        }
        if let auth = fields["auth"] {
            if case .string("bearer") = auth {
                request.bearerAuth = true
            } else {
                report(path + ".auth", "must be \"bearer\"")
            }
        }
        if let body = fields["body"], let bodyFields = object(body, at: path + ".body", keys: ContractSchema.keys(of: .requestBody)) {
            let kindName = requiredString(bodyFields["type"], at: path + ".body.type")
            let kind = kindName.flatMap(BodyRequirement.Kind.init(rawValue:))
            if let kindName, kind == nil {
                report(path + ".body.type", "\"\(kindName)\" is not one of json, form, multipart")
            }
            let types = fieldTypes(bodyFields["fields"], at: path + ".body.fields")
            if let kind { request.body = BodyRequirement(kind: kind, fields: types) }
        }
        return request
    }

    private mutating func parseResponse(_ value: JSONValue?, at path: String) -> String {
        let fallback = "application/json"
        guard let value, let fields = object(value, at: path, keys: ContractSchema.keys(of: .response)) else { return fallback }
        return optionalString(fields["contentType"], at: path + ".contentType") ?? fallback
    }

    /// A scenario name, state or similar: non-empty, no white space.
    static func isWord(_ text: String) -> Bool {
        // Printable ASCII is answered byte by byte; anything else by Characters.
        if !text.isEmpty && text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return true }
        return !text.isEmpty && !text.contains(where: { $0.isWhitespace || $0.isNewline })
    }
}
