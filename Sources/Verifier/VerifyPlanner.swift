import ContractModel
import HTTPCore

/// Builds the cases `mock-server verify` checks from the contracts: for each endpoint its default success scenario
/// always, and each other scenario whose `verify` block gives the request that produces it. A request's values come
/// from the scenario's `verify`, over the endpoint's, then from the fixture files (`products/{id}.json` with `1.json`
/// present gives `id` = 1), header values naming `${VARIABLE}` from the environment, and `--header` fields. What
/// cannot be built, or may not be sent, is a case with the reason. Pure but for reading fixture files.
struct VerifyPlanner {
    let contracts: ContractSet
    let options: VerifyOptions
    /// The environment `${NAME}` header values are read from.
    let environment: [String: String]
    /// The files of a fixtures subfolder, by its path (relative): lists a folder's names, sorted.
    let listFolder: (String) -> [String]
    /// A fixture's bytes by relative path, or `nil`.
    let readFixture: (String) -> [UInt8]?

    func cases() -> [VerifyCase] {
        var cases: [VerifyCase] = []
        for contract in contracts.contracts {
            for endpoint in contract.endpoints where options.only.isEmpty || options.only.contains(endpoint.id) {
                let success = endpoint.scenarios.first { $0.expect == .success && $0.sequence == nil }
                for scenario in endpoint.scenarios {
                    let plan = plan(scenario, of: endpoint, isSuccess: scenario.name == success?.name)
                    cases.append(VerifyCase(file: contract.file, endpoint: endpoint.id, scenario: scenario.name,
                                            method: endpoint.method, path: endpoint.path.description, plan: plan))
                }
            }
        }
        return cases
    }

    private func plan(_ scenario: Scenario, of endpoint: ContractEndpoint, isSuccess: Bool) -> VerifyCase.Plan {
        if scenario.sequence != nil { return .skip("a sequence: its steps are checked one by one", routine: true) }
        if scenario.fault != nil {
            return .skip("a fault is the mock's own misbehaviour, not the backend's", routine: true)
        }
        if scenario.expect == .pathErr { return .skip("pathErr is a deliberately malformed answer", routine: true) }
        if scenario.expect == .networkFail { return .skip("networkFail is no answer at all", routine: true) }
        if scenario.events != nil { return .skip("an event stream: its events are the mock's script", routine: true) }
        if endpoint.resource != nil && scenario.name == Resource.storeScenario {
            return .skip("answered from the mock's resource store", routine: true)
        }
        guard isSuccess || scenario.verify != nil else {
            return .skip("no request is known to produce it; add \"verify\" with the request that does", routine: true)
        }
        guard options.allowWrites || HTTPRequest.Method(rawValue: endpoint.method).isSafe else {
            return .skip("\(endpoint.method) is sent only with --allow-writes")
        }
        let example = (endpoint.verify ?? VerifyExample()).adding(scenario.verify)
        var pathValues = example.pathParams
        var queryValues = example.query
        if let body = scenario.body {
            for (name, value) in Self.values(fromFilesOf: body, folder: listFolder) {
                // A file name the parameter's type refuses (`notes.json` for an integer id) gives no value.
                let type = endpoint.request.pathParams[name] ?? endpoint.request.query[name]
                guard type?.accepts(text: value) ?? true else { continue }
                if endpoint.path.parameterNames.contains(name) {
                    if pathValues[name] == nil { pathValues[name] = value }
                } else if endpoint.request.query[name] != nil, queryValues[name] == nil {
                    queryValues[name] = value
                }
            }
        }
        // The path
        var segments: [String] = []
        for segment in endpoint.path.segments {
            switch segment {
            case .literal(let text): segments.append(Self.encoded(text, keeping: Self.segmentCharacters))
            case .parameter(let name):
                guard let value = pathValues[name] else {
                    return .skip("no value for {\(name)}: add \"verify\": {\"pathParams\": {\"\(name)\": …}} "
                        + "or a fixture file the body path names")
                }
                segments.append(Self.encoded(value))
            }
        }
        // The query: what the example gives; a required parameter without a value cannot be sent.
        for (name, type) in endpoint.request.query.sorted(by: { $0.key < $1.key })
        where !type.isOptional && queryValues[name] == nil {
            return .skip("the query parameter \(name) is required: add \"verify\": {\"query\": {\"\(name)\": …}}")
        }
        let query = queryValues.sorted { $0.key < $1.key }.map { Self.encoded($0.key) + "=" + Self.encoded($0.value) }
        let target = "/" + segments.joined(separator: "/") + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        // Header fields: --header first (its `${NAME}`s from the environment, so a token need not be on the command
        // line), the example's over them (an empty value sends none).
        var headers: [(name: String, value: String)] = []
        for (name, value) in options.headers {
            switch Self.expand(value, environment: environment) {
            case .success(let expanded): headers.append((name, expanded))
            case .failure(let missing): return .skip("--header \(name) needs the environment variable \(missing)")
            }
        }
        for (name, value) in example.headers.sorted(by: { $0.key < $1.key }) {
            let given = headers.contains { $0.name.lowercased() == name.lowercased() }
            switch value.isEmpty ? .success("") : Self.expand(value, environment: environment) {
            case .success(let expanded):
                headers.removeAll { $0.name.lowercased() == name.lowercased() }
                if !expanded.isEmpty || !value.isEmpty { headers.append((name, expanded)) }
            case .failure(let missing):
                // A --header field of that name stands in for the variable.
                guard given else { return .skip("header \(name) needs the environment variable \(missing)") }
            }
        }
        let sendsCredentials = headers.contains { $0.name.lowercased() == "authorization" }
        if endpoint.request.bearerAuth && !sendsCredentials && example.headers["Authorization"] == nil
            && example.headers["authorization"] == nil {
            return .skip("needs a bearer token: pass --header 'Authorization: Bearer $TOKEN'")
        }
        for name in endpoint.request.headers.keys.sorted() where !headers.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            if endpoint.request.headers[name]?.isOptional == false {
                return .skip("the header \(name) is required: add it to \"verify\" or pass --header")
            }
        }
        var body: [UInt8] = []
        if let json = example.body {
            body = json.serialized
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(("Content-Type", "application/json"))
            }
        } else if let required = endpoint.request.body, required.fields.values.contains(where: { !$0.isOptional }) {
            return .skip("a \(required.kind.rawValue) body is required: add \"verify\": {\"body\": …}")
        }
        let request = VerifyRequest(method: endpoint.method, target: target, headers: headers, body: body)
        return .send(request, expectation(scenario, of: endpoint, pathValues: pathValues, query: queryValues))
    }

    private func expectation(_ scenario: Scenario, of endpoint: ContractEndpoint, pathValues: [String: String],
                             query: [String: String]) -> VerifyExpectation {
        var shape: JSONValue?
        if let body = scenario.body, !scenario.proxy {
            let filled = FixturePath.fill(body, parameters: pathValues, query: query.map { ($0.key, $0.value) })
            var file: String?
            if case .path(let path) = filled, readFixture(path) != nil { file = path } else { file = scenario.fallback }
            if let file, let bytes = readFixture(file) {
                shape = scenario.isTemplate ? ShapeComparison.templateShape(bytes) : try? JSONValue.parse(bytes)
            }
        }
        let contentType = scenario.body == nil ? nil : (scenario.contentType ?? endpoint.contentType)
        return VerifyExpectation(expect: scenario.expect,
                                 exactStatus: scenario.verifyStatus == .exact ? scenario.status : nil,
                                 mediaType: contentType.map(Self.mediaType), headerNames: scenario.headers.keys.sorted(),
                                 shape: shape)
    }

    /// `application/json` of `application/json; charset=utf-8`, lower case.
    static func mediaType(_ contentType: String) -> String {
        String(contentType.split(separator: ";").first ?? "").lowercased().filter { $0 != " " && $0 != "\t" }
    }

    /// The values a body path's one placeholder takes in the files present (`products/{id}.json`, files `1.json`
    /// and `2.json`: `id` = 1), the first file by name; nothing for a path with no or several placeholders.
    static func values(fromFilesOf bodyPath: String, folder list: (String) -> [String]) -> [String: String] {
        let names = FixturePath.placeholders(in: bodyPath)
        guard names.count == 1, let name = names.first else { return [:] }
        let slash = bodyPath.lastIndex(of: "/")
        let folder = slash.map { String(bodyPath[..<$0]) } ?? ""
        let pattern = slash.map { String(bodyPath[bodyPath.index(after: $0)...]) } ?? bodyPath
        guard !folder.contains("{"), let open = pattern.firstRange(of: "{" + name + "}") else { return [:] }
        let prefix = pattern[..<open.lowerBound], suffix = pattern[open.upperBound...]
        for file in list(folder) where file.hasPrefix(prefix) && file.hasSuffix(suffix)
            && file.count > prefix.count + suffix.count {
            let value = String(file.dropFirst(prefix.count).dropLast(suffix.count))
            if FixturePath.resolve(pattern, parameters: [name: value]) == file { return [name: value] }
        }
        return [:]
    }

    /// `value` with each `${NAME}` replaced from `environment`, or the first name it lacks.
    static func expand(_ value: String, environment: [String: String]) -> Result<String, MissingVariable> {
        var result = ""
        var rest = Substring(value)
        while let open = rest.firstRange(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
            let name = String(rest[open.upperBound..<close])
            guard let found = environment[name] else { return .failure(MissingVariable(name: "$" + name)) }
            result += rest[..<open.lowerBound] + found
            rest = rest[rest.index(after: close)...]
        }
        return .success(result + rest)
    }

    struct MissingVariable: Error, Equatable, CustomStringConvertible {
        let name: String
        var description: String { name }
    }

    /// What a path segment may hold as is besides the unreserved characters (RFC 3986 §3.3 pchar).
    static let segmentCharacters = Set("!$&'()*+,;=:@".utf8)

    /// Percent-encoded but for the unreserved characters (RFC 3986 §2.3) and `keeping`.
    static func encoded(_ text: String, keeping: Set<UInt8> = []) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where keeping.contains(byte):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
