#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel

/// Contracts and fixtures, in memory, translated from an OpenAPI document; nothing written yet.
package struct ImportPlan: Sendable {
    /// Contract file name → its JSON.
    package var contracts: [String: JSONValue] = [:]
    /// Fixture path, relative to the fixtures folder → its bytes.
    package var fixtures: [String: [UInt8]] = [:]
    package var report = ImportReport()
    package var endpointCount = 0
    package var scenarioCount = 0
}

/// Translates an OpenAPI 3.0 or 3.1 document into contracts and fixtures: one contract per tag (the
/// operations without one go to a contract named after the document's title), one endpoint per operation,
/// one scenario per documented response (one per named example), its body from the example or made from
/// the schema (``SchemaExample``). What a contract cannot express goes to the ``ImportReport``. A
/// document written by ``OpenAPIExporter`` carries `x-mock` extensions (``MockExtension``), which give
/// back its scenarios, states, resources and fixture files as they were.
package struct OpenAPIImporter {
    let document: OpenAPIDocument
    var plan = ImportPlan()
    /// Endpoint ids taken so far, and routes (`GET /a/{}`), each once.
    private var ids: Set<String> = []
    private var routes: Set<String> = []
    /// Resources the root `x-mock` declares: their operations are made from them, not from `paths`.
    private var resourceIDs: Set<String> = []
    /// Path prefix from the first server's URL (`https://api.example.com/v1` → `/v1`).
    private var basePath = ""

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Reads `bytes` (JSON or YAML) and translates the document.
    /// - Throws: ``OpenAPIImportError`` for input that is not an OpenAPI 3.0 or 3.1 document, a `$ref` to
    ///   another document or to nothing, or a document without operations.
    package static func translate(file: String, bytes: [UInt8]) throws(OpenAPIImportError) -> ImportPlan {
        var importer = OpenAPIImporter(document: try OpenAPIDocument(file: file, bytes: bytes))
        try importer.run()
        return importer.plan
    }

    private init(document: OpenAPIDocument) {
        self.document = document
    }

    var file: String { document.file }

    /// An endpoint made from an operation, and the contract it goes to.
    struct ImportedEndpoint {
        let id: String
        /// The domain of its first tag, or nil for the document's own contract.
        let tag: String?
        let json: JSONValue
    }

    private mutating func run() throws(OpenAPIImportError) {
        let root = document.root
        let mock = root[MockExtension.key]
        let mockContracts = mock?["contracts"]?.arrayValue ?? []
        for contract in mockContracts {
            for resource in contract["resources"]?.arrayValue ?? [] {
                if let id = resource["id"]?.stringValue { resourceIDs.insert(id) }
            }
        }
        basePath = serverBasePath()
        if root["webhooks"] != nil { plan.report.skip(file, "/webhooks", "webhooks are not mocked") }
        guard let paths = root["paths"]?.objectValue else {
            if root["paths"] != nil { throw .at(file, "/paths", "must be an object of paths") }
            if root["webhooks"] != nil {
                throw .at(file, "", "the document has webhooks but no paths; webhooks are not mocked, so there is "
                    + "nothing to mock")
            }
            throw .at(file, "", "the document has no paths, so there is nothing to mock")
        }
        var endpoints: [ImportedEndpoint] = []
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            let pointer = Pointer.appending("/paths", path)
            guard !path.hasPrefix("x-") else { continue }
            let (pathItem, itemPointer) = try document.resolve(item, at: pointer)
            guard case .object(let fields) = pathItem else { throw .at(file, itemPointer, "a path item must be an object") }
            if fields["servers"] != nil {
                plan.report.skip(file, Pointer.appending(itemPointer, "servers"), "per-path servers are ignored")
            }
            for method in Self.methods {
                guard let operation = fields[method] else { continue }
                let operationPointer = Pointer.appending(pointer, method)
                if method == "trace" {
                    plan.report.skip(file, operationPointer, "TRACE operations are not mocked (a contract has no TRACE)")
                    continue
                }
                if let endpoint = try endpoint(path: path, method: method, operation: operation, pathItem: fields,
                                               at: operationPointer) {
                    endpoints.append(endpoint)
                }
            }
        }
        try writeMockFixtures()
        assemble(endpoints, mockContracts: mockContracts)
        guard plan.endpointCount > 0 || plan.contracts.values.contains(where: { $0["resources"] != nil }) else {
            throw .at(file, "/paths", "the document has no operation that can be mocked")
        }
    }

    /// The path of the first server's URL, its variables filled with their defaults; `""` for none or `/`.
    private mutating func serverBasePath() -> String {
        guard let server = document.root["servers"]?.arrayValue?.first, var url = server["url"]?.stringValue else {
            return ""
        }
        for (name, variable) in server["variables"]?.objectValue ?? [:] {
            url = url.replacing("{\(name)}", with: variable["default"]?.stringValue ?? "")
        }
        var path = Substring(url)
        if let scheme = path.firstRange(of: "://") {
            path = path[scheme.upperBound...]
            path = path.firstIndex(of: "/").map { path[$0...] } ?? ""
        }
        while path.hasSuffix("/") { path = path.dropLast() }
        guard path.hasPrefix("/"), PathTemplate(String(path)) != nil else { return "" }
        if document.root["servers"]?.arrayValue?.count ?? 0 > 1 {
            plan.report.skip(file, "/servers/0", "paths are served under \(path), the first server's path; the other "
                + "servers are ignored")
        } else {
            plan.report.skip(file, "/servers/0", "paths are served under \(path), the server's path")
        }
        return String(path)
    }

    /// One endpoint's contract JSON from an operation, or nil when it is skipped (reported) or made by a
    /// resource.
    private mutating func endpoint(path: String, method: String, operation: JSONValue, pathItem: [String: JSONValue],
                                   at pointer: String) throws(OpenAPIImportError) -> ImportedEndpoint? {
        guard case .object(let fields) = operation else { throw .at(file, pointer, "an operation must be an object") }
        let mock = fields[MockExtension.key]
        if let resource = mock?["resource"]?.stringValue, resourceIDs.contains(resource) { return nil }
        // The contract's path: the server's base path, and path parameters named as a contract allows.
        var renamed: [String: String] = [:]
        guard path.hasPrefix("/") else {
            plan.report.skip(file, pointer, "the path \(path) does not start with /, so this operation is not mocked")
            return nil
        }
        // `/` under a base path is the base path itself (`/v2`, not `/v2/`).
        let fullPath = !basePath.isEmpty && path == "/" ? basePath : basePath + path
        let segments = fullPath.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 else { return String(segment) }
            let name = String(segment.dropFirst().dropLast())
            renamed[name] = ImportNames.parameter(name)
            return "{" + ImportNames.parameter(name) + "}"
        }
        let contractPath = segments.joined(separator: "/")
        guard let template = PathTemplate(contractPath) else {
            plan.report.skip(file, pointer, "the path \(path) has a parameter inside a segment; a contract's {name} "
                + "takes a whole segment, so this operation is not mocked")
            return nil
        }
        let routeKey = method.uppercased() + " /" + template.segments.map {
            if case .literal(let text) = $0 { text } else { "{}" }
        }.joined(separator: "/")
        guard routes.insert(routeKey).inserted else {
            plan.report.skip(file, pointer, "\(method.uppercased()) \(path) is the same route as an earlier operation "
                + "(only parameter names differ); it is not mocked")
            return nil
        }
        var id = fields["operationId"]?.stringValue.map(ImportNames.word)
            ?? ImportNames.derivedID(method: method, path: path)
        if ids.contains(id) {
            let unique = ImportNames.unique(id, in: ids)
            plan.report.skip(file, Pointer.appending(pointer, "operationId"),
                             "endpoint id \(id) is taken; this one is \(unique)")
            id = unique
        }
        ids.insert(id)
        let tag = fields["tags"]?.arrayValue?.first?.stringValue
        let domain = ImportNames.slug(tag ?? documentDomain)
        for key in ["callbacks", "servers"] where fields[key] != nil {
            plan.report.skip(file, Pointer.appending(pointer, key), "\(key) are not mocked")
        }

        var endpoint: [String: JSONValue] = [
            "id": .string(id), "method": .string(method.uppercased()), "path": .string(contractPath),
        ]
        if let description = fields["description"]?.stringValue ?? fields["summary"]?.stringValue {
            endpoint["description"] = .string(description)
        }
        var request = try requestRequirements(fields, pathItem: pathItem, template: template, renamed: renamed,
                                              at: pointer)
        if let headers = mock?["requestHeaders"]?.objectValue {
            var merged = request["headers"]?.objectValue ?? [:]
            merged.merge(headers) { _, written in written }
            request["headers"] = .object(merged)
        }
        if !request.isEmpty { endpoint["request"] = .object(request) }
        let reportBefore = plan.report
        let responses = try scenarios(fields, endpointID: id, domain: domain, at: pointer)
        var contentType = responses.contentType
        var scenarios = responses.scenarios
        if let written = mock?["scenarios"]?.arrayValue, !written.isEmpty {
            scenarios = written
            contentType = mock?["contentType"]?.stringValue ?? "application/json"
            for file in responses.fixtures { plan.fixtures[file] = nil }
            plan.report = reportBefore // what the made-up scenarios left out does not apply
        }
        if let whenState = mock?["whenState"] { endpoint["whenState"] = whenState }
        if let rateLimit = mock?["rateLimit"] { endpoint["rateLimit"] = rateLimit }
        if let webSocket = mock?["websocket"] { endpoint["websocket"] = webSocket }
        if let subprotocols = mock?["subprotocols"] { endpoint["subprotocols"] = subprotocols }
        if contentType != "application/json" { endpoint["response"] = .object(["contentType": .string(contentType)]) }
        guard !scenarios.isEmpty else {
            plan.report.skip(file, Pointer.appending(pointer, "responses"), "no response can be mocked (only 1xx, or "
                + "none), so this operation is not mocked")
            ids.remove(id)
            return nil
        }
        endpoint["scenarios"] = .array(scenarios)
        plan.endpointCount += 1
        plan.scenarioCount += scenarios.count
        return ImportedEndpoint(id: id, tag: tag.map(ImportNames.slug), json: .object(endpoint))
    }

    /// The domain of operations without a tag: the document's title.
    var documentDomain: String {
        ImportNames.slug(document.root["info"]?["title"]?.stringValue ?? "api")
    }

    /// Writes the fixtures an exported document carries (`x-mock-fixture` examples) where they were.
    private mutating func writeMockFixtures() throws(OpenAPIImportError) {
        for (key, example) in document.root["components"]?["examples"]?.objectValue ?? [:] {
            guard let marker = example[MockExtension.fixtureKey], let path = marker["path"]?.stringValue else { continue }
            let pointer = Pointer.appending("/components/examples", key)
            guard FixturePath.staysInside(path) else {
                throw .at(file, Pointer.appending(pointer, MockExtension.fixtureKey), "\"\(path)\" must be a relative "
                    + "path inside the fixtures folder")
            }
            let value = example["value"] ?? .null
            switch marker["format"]?.stringValue {
            case "text":
                plan.fixtures[path] = Array((value.stringValue ?? "").utf8)
            case "base64":
                guard let data = Data(base64Encoded: value.stringValue ?? "") else {
                    throw .at(file, Pointer.appending(pointer, "value"), "is not Base64")
                }
                plan.fixtures[path] = Array(data)
            default:
                plan.fixtures[path] = value.prettyPrinted()
            }
        }
    }

    /// Groups the endpoints into contracts: the files the root `x-mock` names, in its order; then one per tag.
    private mutating func assemble(_ endpoints: [ImportedEndpoint], mockContracts: [JSONValue]) {
        var byID: [String: ImportedEndpoint] = [:]
        for endpoint in endpoints { byID[endpoint.id] = endpoint }
        var placed: Set<String> = []
        var fileOfDomain: [String: String] = [:]
        for contract in mockContracts {
            guard let domain = contract["domain"]?.stringValue else { continue }
            // The file name as exported, if it is one; never a path elsewhere.
            let written = contract["file"]?.stringValue.flatMap { file in
                FixturePath.staysInside(file) && !file.contains("/") ? file : nil
            }
            let name = written ?? ImportNames.slug(domain) + ".json"
            var json: [String: JSONValue] = ["domain": .string(domain)]
            for key in ["description", "states", "resources"] { json[key] = contract[key] }
            let listed = contract["endpoints"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let members = listed.compactMap { byID[$0] }
            placed.formUnion(members.map(\.id))
            json["endpoints"] = .array(members.map(\.json))
            plan.contracts[name] = .object(json)
            fileOfDomain[domain] = fileOfDomain[domain] ?? name
        }
        for endpoint in endpoints where !placed.contains(endpoint.id) {
            let domain = endpoint.tag ?? documentDomain
            let name = fileOfDomain[domain] ?? ImportNames.slug(domain) + ".json"
            fileOfDomain[domain] = name
            var json = plan.contracts[name]?.objectValue ?? ["domain": .string(domain), "endpoints": .array([])]
            json["endpoints"] = .array((json["endpoints"]?.arrayValue ?? []) + [endpoint.json])
            if json["description"] == nil, let description = tagDescription(domain) {
                json["description"] = .string(description)
            }
            plan.contracts[name] = .object(json)
        }
        for (name, contract) in plan.contracts
        where contract["endpoints"]?.arrayValue?.isEmpty ?? true && contract["resources"] == nil {
            plan.contracts[name] = nil
        }
        for (name, contract) in plan.contracts where contract["endpoints"]?.arrayValue?.isEmpty ?? false {
            var json = contract.objectValue ?? [:]
            json["endpoints"] = nil
            plan.contracts[name] = .object(json)
        }
    }

    private func tagDescription(_ domain: String) -> String? {
        let tag = document.root["tags"]?.arrayValue?.first { ImportNames.slug($0["name"]?.stringValue ?? "") == domain }
        return tag?["description"]?.stringValue
    }
}
