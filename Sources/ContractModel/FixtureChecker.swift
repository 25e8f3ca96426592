// Only Foundation's essentials (FileManager, URL): they keep the mock server small and quick to start.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Checks every fixture file the contracts can serve: each fixed path, every file a templated path
/// (`products/page-{page_no}.json`) can reach in its folder, and each fallback. A file must exist, stay
/// inside the fixtures folder, be valid JSON when it is `.json` (outside `malformed/`), and be a valid
/// template when a scenario fills it in.
package struct FixtureChecker {
    private let root: String
    private let progress: (@Sendable (_ files: Int, _ bytes: Int) -> Void)?
    private var caseCheck: FixtureCaseCheck
    /// Verdicts by file (and, for templates, by endpoint): many scenarios share a fixture.
    private var verdicts: [String: String?] = [:]
    /// Letter-case verdicts by path: checked once per distinct path, as the files are.
    private var caseVerdicts: [String: String?] = [:]
    private var bytesRead = 0

    init(root: String, progress: (@Sendable (_ files: Int, _ bytes: Int) -> Void)?) {
        self.root = root
        self.progress = progress
        caseCheck = FixtureCaseCheck(root: root)
    }

    mutating func problems(of contracts: [Contract]) -> [ContractProblem] {
        var found: [ContractProblem] = []
        for contract in contracts {
            for (endpointIndex, endpoint) in contract.endpoints.enumerated() {
                for (scenarioIndex, scenario) in endpoint.scenarios.enumerated() {
                    let path = "$.endpoints[\(endpointIndex)].scenarios[\(scenarioIndex)]"
                    for (key, reason) in problems(of: scenario, endpoint: endpoint) {
                        found.append(ContractProblem(file: contract.file, path: path + "." + key, reason: reason))
                    }
                }
            }
        }
        return found
    }

    /// The problems of one scenario's fixtures, each with the scenario key it concerns.
    private mutating func problems(of scenario: Scenario, endpoint: ContractEndpoint) -> [(String, String)] {
        let paths = [("body", scenario.body), ("fallback", scenario.fallback)].compactMap { key, path in
            path.map { (key, $0) }
        }
        var problems: [(String, String)] = []
        // Each event's data is a template to check when the scenario is one, whether the contract or a fixture holds it.
        func checkTemplates(_ events: [ServerEvent], at key: (Int) -> String) {
            guard scenario.isTemplate else { return }
            let context = ResponseTemplate.Context(scenario, of: endpoint)
            for (index, event) in events.enumerated() {
                do {
                    _ = try ResponseTemplate.parse(Array(event.data.utf8), context: context)
                } catch {
                    problems.append((key(index), "\(error)"))
                }
            }
        }
        if case .inline(let events)? = scenario.events?.source {
            checkTemplates(events) { "events[\($0)].data" }
        }
        if case .fixture(let file)? = scenario.events?.source {
            if let reason = caseProblem(file) {
                problems.append(("events", reason))
            } else if let bytes = FileManager.default.contents(atPath: root + "/" + file) {
                if let value = try? JSONValue.parse(Array(bytes)) {
                    switch ServerEvent.list(from: value) {
                    case .failure(let problem): problems.append(("events", "\(file)\(problem.at): \(problem.reason)"))
                    case .success(let events): checkTemplates(events) { "events (\(file)[\($0)].data)" }
                    }
                } else {
                    problems.append(("events", "\(file) is not JSON: a list of events"))
                }
            } else {
                problems.append(("events", "fixture \"\(file)\" not found"))
            }
        }
        for (key, path) in paths {
            if let reason = caseProblem(path) {
                problems.append((key, reason))
            } else if FixturePath.placeholders(in: path).isEmpty {
                if let reason = verdict(path, scenario: scenario, endpoint: endpoint) { problems.append((key, reason)) }
            } else if let files = reachableFiles(path, of: endpoint) {
                problems += files.compactMap { file in verdict(file, scenario: scenario, endpoint: endpoint).map { (key, $0) } }
            } else {
                problems.append((key, "fixture folder \"\(Self.folder(of: path))\" not found"))
            }
        }
        return problems
    }

    /// The files in a templated path's folder that its file-name pattern can produce with values of the
    /// parameters' declared types, or `nil` when the folder does not exist.
    private func reachableFiles(_ template: String, of endpoint: ContractEndpoint) -> [String]? {
        Self.reachableFiles(template, of: endpoint, root: root)
    }

    /// The files under `root` that the templated fixture path `template` of `endpoint` can reach, sorted,
    /// or `nil` when its folder does not exist.
    package static func reachableFiles(_ template: String, of endpoint: ContractEndpoint, root: String) -> [String]? {
        let folder = Self.folder(of: template)
        let pattern = String(template.split(separator: "/").last ?? "")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder) else { return nil }
        let request = endpoint.request
        return names.sorted().filter { name in
            FixturePath.matches(name, pattern: pattern) { parameter, value in
                (request.pathParams[parameter] ?? request.query[parameter])?.accepts(text: value) ?? true
            } && !ContractLoader.isDirectory(root + "/" + folder + "/" + name)
        }.map { folder + "/" + $0 }
    }

    private static func folder(of path: String) -> String {
        path.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// A path that names a file only when case is ignored works on a default macOS volume and fails on
    /// Linux; it is a problem everywhere.
    private mutating func caseProblem(_ body: String) -> String? {
        if let known = caseVerdicts[body] { return known }
        let verdict = caseCheckedProblem(body)
        caseVerdicts[body] = verdict
        return verdict
    }

    private mutating func caseCheckedProblem(_ body: String) -> String? {
        let templated = !FixturePath.placeholders(in: body).isEmpty
        let checked = templated ? Self.folder(of: body) : body
        guard !checked.isEmpty, let actual = caseCheck.differentlyCased(checked) else { return nil }
        return "fixture path \"\(checked)\" differs in letter case from \"\(actual)\" on disk "
            + "(file names are case-sensitive on Linux and on case-sensitive volumes)"
    }

    private mutating func verdict(_ file: String, scenario: Scenario, endpoint: ContractEndpoint) -> String? {
        // A template is checked against its endpoint's parameters, so its verdict is the endpoint's own.
        let key = scenario.isTemplate ? file + "\u{0}" + endpoint.id + "\u{0}" + scenario.name : file
        if let known = verdicts[key] { return known }
        let verdict = problem(file, template: scenario.isTemplate ? ResponseTemplate.Context(scenario, of: endpoint) : nil)
        verdicts[key] = verdict
        progress?(verdicts.count, bytesRead)
        return verdict
    }

    private mutating func problem(_ relativePath: String, template: ResponseTemplate.Context?) -> String? {
        let full = root + "/" + relativePath
        guard let bytes = FileManager.default.contents(atPath: full) else {
            // Said apart from a missing file: one that is there but cannot be read (a folder, no permission, or the
            // process out of descriptors), so the message points at the cause.
            guard let kind = (try? FileManager.default.attributesOfItem(atPath: full))?[.type] as? FileAttributeType else {
                return "fixture \"\(relativePath)\" not found in \(root)"
            }
            return kind == .typeDirectory
                ? "fixture \"\(relativePath)\" is a folder in \(root), not a file"
                : "fixture \"\(relativePath)\" is in \(root) but could not be read (no permission to read it, or the "
                    + "process is out of file descriptors)"
        }
        bytesRead += bytes.count
        if let target = FixtureContainment.escape(of: full, root: root) {
            return "fixture \"\(relativePath)\" is a symbolic link to \(target), outside the fixtures folder; "
                + "it is never served"
        }
        if let template {
            do {
                _ = try ResponseTemplate.parse(Array(bytes), context: template)
            } catch {
                return "template \"\(relativePath)\", \(error)"
            }
            return nil
        }
        let isMalformedOnPurpose = relativePath.split(separator: "/").contains {
            $0 == Substring(ContractLoader.malformedFolder)
        }
        guard relativePath.hasSuffix(".json") && !isMalformedOnPurpose else { return nil }
        // Our strict reader (RFC 8259) checks every fixture up to `strictFixtureLimit`. Past that, the
        // toolchain's optimised decoder does, which keeps a debug build quick to start on a huge fixture
        // (60 MB: 0.25 s, where ours takes 9 s) but lets trailing commas through; a failure is read
        // again by ours, for the line and column.
        if bytes.count <= ContractLoader.strictFixtureLimit || (try? JSONDecoder().decode(AnyJSON.self, from: bytes)) == nil {
            do {
                _ = try JSONValue.parse(bytes)
            } catch {
                return "fixture \"\(relativePath)\" is not valid JSON (\(error)); "
                    + "put deliberately broken fixtures under a \"\(ContractLoader.malformedFolder)/\" folder"
            }
        }
        return nil
    }
}

extension ResponseTemplate.Context {
    /// What a template of `scenario` may read: the endpoint's path parameters (strings unless declared),
    /// its declared query parameters, and whether the response is JSON.
    package init(_ scenario: Scenario, of endpoint: ContractEndpoint) {
        var path: [String: FieldType] = [:]
        for name in endpoint.path.parameterNames {
            path[name] = endpoint.request.pathParams[name] ?? FieldType(kind: .string)
        }
        let contentType = (scenario.contentType ?? endpoint.contentType).lowercased()
        // An event's data is text in the stream, whatever the endpoint's content type says.
        self.init(pathParameters: path, query: endpoint.request.query,
                  isJSON: scenario.events == nil && (contentType.contains("/json") || contentType.contains("+json")))
    }
}

/// Decodes from any JSON document and keeps nothing: the decoder has checked the whole document first.
private struct AnyJSON: Decodable {
    init(from decoder: any Decoder) throws {}
}
