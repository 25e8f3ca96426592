/// Reads one contract document into the model, collecting every problem instead of stopping at the first.
///
/// Each object is checked for unknown keys, so a typo such as `"stauts"` is an error, never ignored.
struct ContractParser {
    let file: String
    private(set) var problems: [ContractProblem] = []

    init(file: String) { self.file = file }

    mutating func parse(_ document: JSONValue) -> Contract? {
        guard let root = object(document, at: "$", keys: ["domain", "endpoints", "description"]) else { return nil }
        let domain = requiredString(root["domain"], at: "$.domain")
        var endpoints: [ContractEndpoint] = []
        if let list = array(root["endpoints"], at: "$.endpoints", required: true) {
            if list.isEmpty { report("$.endpoints", "must list at least one endpoint") }
            for (index, value) in list.enumerated() {
                if let endpoint = parseEndpoint(value, domain: domain ?? "", at: "$.endpoints[\(index)]") {
                    endpoints.append(endpoint)
                }
            }
        }
        checkUnique(endpoints.map(\.id), at: "$.endpoints", what: "endpoint id")
        guard let domain else { return nil }
        return Contract(domain: domain, file: file, endpoints: endpoints)
    }

    // MARK: - Endpoints

    private static let methods: Set = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    private mutating func parseEndpoint(_ value: JSONValue, domain: String, at path: String) -> ContractEndpoint? {
        guard let fields = object(value, at: path,
                                  keys: ["id", "method", "path", "request", "response", "scenarios", "description"])
        else { return nil }
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
        var scenarios: [Scenario] = []
        if let list = array(fields["scenarios"], at: path + ".scenarios", required: true) {
            if list.isEmpty { report(path + ".scenarios", "must list at least one scenario; the first is the default") }
            for (index, value) in list.enumerated() {
                if let scenario = parseScenario(value, template: template, at: path + ".scenarios[\(index)]") {
                    scenarios.append(scenario)
                }
            }
        }
        checkUnique(scenarios.map(\.name), at: path + ".scenarios", what: "scenario name")
        guard let id, let method, Self.methods.contains(method), let template else { return nil }
        return ContractEndpoint(id: id, domain: domain, method: method, path: template, request: request,
                                contentType: contentType, scenarios: scenarios)
    }

    private mutating func parseRequest(_ value: JSONValue?, template: PathTemplate?, at path: String)
        -> RequestRequirements
    {
        var request = RequestRequirements()
        guard let value,
              let fields = object(value, at: path, keys: ["query", "headers", "pathParams", "auth", "body"])
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
        if let body = fields["body"], let bodyFields = object(body, at: path + ".body", keys: ["type", "fields"]) {
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
        guard let value, let fields = object(value, at: path, keys: ["contentType"]) else { return fallback }
        return optionalString(fields["contentType"], at: path + ".contentType") ?? fallback
    }

    // MARK: - Scenarios

    private static let scenarioKeys: Set = [
        "name", "status", "body", "headers", "contentType", "fault", "delayMs", "holdMs", "expect", "description",
    ]

    private mutating func parseScenario(_ value: JSONValue, template: PathTemplate?, at path: String) -> Scenario? {
        guard let fields = object(value, at: path, keys: Self.scenarioKeys) else { return nil }
        let name = requiredString(fields["name"], at: path + ".name")
        if let name, name.isEmpty || name.contains(where: { $0.isWhitespace || $0.isNewline }) {
            report(path + ".name", "must be a non-empty word without spaces")
        }
        let status = integer(fields["status"], at: path + ".status", in: 200...599)
        let faultName = optionalString(fields["fault"], at: path + ".fault")
        let fault = faultName.flatMap(Fault.init(rawValue:))
        if let faultName, fault == nil {
            report(path + ".fault", "\"\(faultName)\" is not one of "
                + Fault.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if (status == nil) == (faultName == nil) && fields["status"] == nil {
            report(path, "needs either \"status\" or \"fault\"")
        } else if fields["status"] != nil && faultName != nil {
            report(path, "has both \"status\" and \"fault\"; a fault sends no status")
        }
        let body = optionalString(fields["body"], at: path + ".body")
        if let body { checkFixturePath(body, template: template, at: path + ".body") }
        let headers = stringMap(fields["headers"], at: path + ".headers")
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if name.isEmpty || !name.utf8.allSatisfy(Self.isTokenByte) {
                report(path + ".headers." + name, "a header name is a token: letters, digits and !#$%&'*+-.^_`|~ only")
            }
            if value.utf8.contains(where: { ($0 < 0x20 && $0 != 9) || $0 == 0x7F }) {
                report(path + ".headers." + name, "a header value cannot hold control characters (line breaks, NUL)")
            }
            if name.lowercased() == "www-authenticate" && value.lowercased().hasPrefix("basic") {
                report(path + ".headers." + name, "a Basic challenge makes URLSession on Linux hang; use \"Bearer\"")
            }
        }
        let contentType = optionalString(fields["contentType"], at: path + ".contentType")
        let delayMs = integer(fields["delayMs"], at: path + ".delayMs", in: 0...60_000) ?? 0
        let holdMs = integer(fields["holdMs"], at: path + ".holdMs", in: 1...120_000) ?? 10_000
        let description = optionalString(fields["description"], at: path + ".description")
        let expectName = requiredString(fields["expect"], at: path + ".expect")
        let expect = expectName.flatMap(Expectation.init(rawValue:))
        if let expectName, expect == nil {
            report(path + ".expect", "\"\(expectName)\" is not one of "
                + Expectation.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if let expect { checkConsistency(expect: expect, status: status, fault: fault, at: path + ".expect") }
        guard let name, let expect, status != nil || fault != nil else { return nil }
        return Scenario(name: name, status: status, body: body, headers: headers, contentType: contentType,
                        fault: fault, delayMs: delayMs, holdMs: holdMs, expect: expect, description: description)
    }

    /// A scenario whose `expect` contradicts its status is a typo that would make the contract lie.
    private mutating func checkConsistency(expect: Expectation, status: Int?, fault: Fault?, at path: String) {
        let allowed: [Expectation]
        switch (fault, status) {
        case (.some, _): allowed = [.networkFail]
        case (nil, .some(200...299)): allowed = [.success, .pathErr]
        case (nil, .some(400...499)): allowed = [.requestErr]
        case (nil, .some(500...599)): allowed = [.serverErr]
        case (nil, .some): allowed = [.networkFail]
        case (nil, nil): return
        }
        if !allowed.contains(expect) {
            let cause = fault.map { "fault \($0.rawValue)" } ?? "status \(status ?? 0)"
            report(path, "\"\(expect.rawValue)\" cannot follow from \(cause); expected "
                + allowed.map(\.rawValue).joined(separator: " or "))
        }
    }

    private mutating func checkFixturePath(_ body: String, template: PathTemplate?, at path: String) {
        if !FixturePath.staysInside(body) {
            report(path, "\"\(body)\" must be a relative path inside the fixtures folder")
        }
        let names = FixturePath.placeholders(in: body)
        for name in names where !(template?.parameterNames.contains(name) ?? false) {
            report(path, "{\(name)} is not a parameter of the endpoint's path")
        }
    }

    // MARK: - Typed readers

    private mutating func report(_ path: String, _ reason: String) {
        problems.append(ContractProblem(file: file, path: path, reason: reason))
    }

    private mutating func object(_ value: JSONValue, at path: String, keys: Set<String>) -> [String: JSONValue]? {
        guard case .object(let fields) = value else {
            report(path, "expected an object, found \(value.typeName)")
            return nil
        }
        for key in fields.keys.sorted() where !keys.contains(key) {
            report(path + "." + key, "unknown key; allowed: " + keys.sorted().joined(separator: ", "))
        }
        return fields
    }

    private mutating func array(_ value: JSONValue?, at path: String, required: Bool) -> [JSONValue]? {
        guard let value else {
            if required { report(path, "is required") }
            return nil
        }
        guard case .array(let items) = value else {
            report(path, "expected an array, found \(value.typeName)")
            return nil
        }
        return items
    }

    private mutating func requiredString(_ value: JSONValue?, at path: String) -> String? {
        guard value != nil else {
            report(path, "is required")
            return nil
        }
        return optionalString(value, at: path)
    }

    private mutating func optionalString(_ value: JSONValue?, at path: String) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            report(path, "expected a string, found \(value.typeName)")
            return nil
        }
        return text
    }

    private mutating func integer(_ value: JSONValue?, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return nil }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e9 else {
            report(path, "expected an integer, found \(value.typeName)")
            return nil
        }
        guard range.contains(Int(number)) else {
            report(path, "\(Int(number)) is outside \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return Int(number)
    }

    private mutating func stringMap(_ value: JSONValue?, at path: String) -> [String: String] {
        guard let value else { return [:] }
        guard case .object(let fields) = value else {
            report(path, "expected an object of strings, found \(value.typeName)")
            return [:]
        }
        var map: [String: String] = [:]
        for (key, item) in fields {
            if let text = optionalString(item, at: path + "." + key) { map[key] = text }
        }
        return map
    }

    private mutating func fieldTypes(_ value: JSONValue?, at path: String) -> [String: FieldType] {
        var types: [String: FieldType] = [:]
        for (name, declaration) in stringMap(value, at: path) {
            if let type = FieldType(declaration: declaration) {
                types[name] = type
            } else {
                report(path + "." + name, "\"\(declaration)\" is not a type; use "
                    + FieldType.Kind.allCases.map(\.rawValue).joined(separator: ", ") + ", optionally with ?")
            }
        }
        return types
    }

    private mutating func checkUnique(_ names: [String], at path: String, what: String) {
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            report(path, "duplicate \(what) \"\(name)\"")
        }
    }

    /// RFC 9110 §5.6.2 tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
