// Only Foundation's essentials (FileManager, URL): they keep the mock server small and quick to start.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every contract of a folder, checked together with the fixtures they name.
package struct ContractSet: Sendable {
    package let contracts: [Contract]
    package let fixturesDirectory: String

    /// Every endpoint of every contract, in file order.
    package var endpoints: [ContractEndpoint] { contracts.flatMap(\.endpoints) }
}

/// Loads and validates `Contracts/*.json` against a fixtures folder, up front: a bad contract stops
/// the server at start with every problem named, never at request time.
package enum ContractLoader {
    /// Fixtures under a folder of this name may be invalid JSON on purpose.
    package static let malformedFolder = "malformed"

    /// - Parameters:
    ///   - contractsDirectory: A folder of `*.json` contract files.
    ///   - fixturesDirectory: The folder scenario `body` paths are relative to.
    /// - Throws: ``ContractLoadError`` listing every problem found.
    package static func load(contractsDirectory: String, fixturesDirectory: String) throws(ContractLoadError)
        -> ContractSet
    {
        var problems: [ContractProblem] = []
        var contracts: [Contract] = []
        let files = contractFiles(in: contractsDirectory, problems: &problems)
        if !isDirectory(fixturesDirectory) {
            problems.append(ContractProblem(file: fixturesDirectory, path: "-", reason: "fixtures folder not found"))
        }
        for file in files {
            guard let bytes = FileManager.default.contents(atPath: file) else {
                problems.append(ContractProblem(file: file, path: "-", reason: "cannot be read"))
                continue
            }
            let document: JSONValue
            do {
                document = try JSONValue.parse(bytes)
            } catch {
                problems.append(ContractProblem(file: file, path: "$", reason: "not valid JSON: \(error)"))
                continue
            }
            var parser = ContractParser(file: file)
            let contract = parser.parse(document)
            problems += parser.problems
            if let contract { contracts.append(contract) }
        }
        problems += crossFileProblems(contracts)
        if isDirectory(fixturesDirectory) {
            problems += fixtureProblems(contracts, fixturesDirectory: fixturesDirectory)
        }
        guard problems.isEmpty else { throw ContractLoadError(problems: problems) }
        return ContractSet(contracts: contracts, fixturesDirectory: fixturesDirectory)
    }

    private static func contractFiles(in directory: String, problems: inout [ContractProblem]) -> [String] {
        guard isDirectory(directory),
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else {
            problems.append(ContractProblem(file: directory, path: "-", reason: "contracts folder not found"))
            return []
        }
        let files = names.filter { $0.hasSuffix(".json") }.sorted().map { directory + "/" + $0 }
        if files.isEmpty {
            problems.append(ContractProblem(file: directory, path: "-", reason: "holds no *.json contract"))
        }
        return files
    }

    /// Endpoint ids must be unique across files (the admin API addresses them), and no two endpoints
    /// may claim the same method and path.
    private static func crossFileProblems(_ contracts: [Contract]) -> [ContractProblem] {
        var problems: [ContractProblem] = []
        var ids: [String: String] = [:]
        var routes: [String: String] = [:]
        for contract in contracts {
            for (index, endpoint) in contract.endpoints.enumerated() {
                let path = "$.endpoints[\(index)]"
                if let other = ids[endpoint.id], other != contract.file {
                    problems.append(ContractProblem(file: contract.file, path: path + ".id",
                                                    reason: "endpoint id \"\(endpoint.id)\" is also used in \(other)"))
                }
                ids[endpoint.id] = contract.file
                let route = endpoint.method + " " + endpoint.path.shape
                if let other = routes[route] {
                    problems.append(ContractProblem(file: contract.file, path: path + ".path",
                                                    reason: "\(route) is already served by endpoint \"\(other)\""))
                }
                routes[route] = endpoint.id
            }
        }
        return problems
    }

    private static func fixtureProblems(_ contracts: [Contract], fixturesDirectory: String) -> [ContractProblem] {
        var problems: [ContractProblem] = []
        var caseCheck = FixtureCaseCheck(root: fixturesDirectory)
        var verdicts: [String: String?] = [:]
        for contract in contracts {
            for (endpointIndex, endpoint) in contract.endpoints.enumerated() {
                for (scenarioIndex, scenario) in endpoint.scenarios.enumerated() {
                    guard let body = scenario.body else { continue }
                    let path = "$.endpoints[\(endpointIndex)].scenarios[\(scenarioIndex)].body"
                    // Checked once per distinct path: many scenarios often share one fixture.
                    let verdict = verdicts[body] ?? (caseProblem(body, &caseCheck)
                        ?? fixtureProblem(body, fixturesDirectory: fixturesDirectory))
                    verdicts[body] = verdict
                    if let reason = verdict {
                        problems.append(ContractProblem(file: contract.file, path: path, reason: reason))
                    }
                }
            }
        }
        return problems
    }

    /// A path that names a file only when case is ignored works on a default macOS volume and fails on
    /// Linux; it is a problem everywhere.
    private static func caseProblem(_ body: String, _ check: inout FixtureCaseCheck) -> String? {
        let templated = !FixturePath.placeholders(in: body).isEmpty
        let checked = templated ? body.split(separator: "/").dropLast().joined(separator: "/") : body
        guard !checked.isEmpty, let actual = check.differentlyCased(checked) else { return nil }
        return "fixture path \"\(checked)\" differs in letter case from \"\(actual)\" on disk "
            + "(file names are case-sensitive on Linux and on case-sensitive volumes)"
    }

    private static func fixtureProblem(_ body: String, fixturesDirectory: String) -> String? {
        if !FixturePath.placeholders(in: body).isEmpty {
            // Per-id files are looked up per request (a missing one is a 404); only their folder must exist.
            let folder = body.split(separator: "/").dropLast().joined(separator: "/")
            let path = fixturesDirectory + "/" + folder
            guard isDirectory(path) else { return "fixture folder \"\(folder)\" not found" }
            if let link = FixtureContainment.firstEscape(in: path, root: fixturesDirectory) {
                return "fixture \"\(folder)/\(link.name)\" is a symbolic link to \(link.target), outside the "
                    + "fixtures folder; it is never served"
            }
            return nil
        }
        let full = fixturesDirectory + "/" + body
        guard let bytes = FileManager.default.contents(atPath: full) else {
            return "fixture \"\(body)\" not found in \(fixturesDirectory)"
        }
        if let target = FixtureContainment.escape(of: full, root: fixturesDirectory) {
            return "fixture \"\(body)\" is a symbolic link to \(target), outside the fixtures folder; it is never served"
        }
        let isMalformedOnPurpose = body.split(separator: "/").contains { $0 == Substring(malformedFolder) }
        if body.hasSuffix(".json") && !isMalformedOnPurpose {
            // The toolchain's optimised reader checks the syntax, quick even in a debug build (a 60 MB
            // fixture in a fraction of a second); only a failure is read again, for our line and column.
            if (try? JSONDecoder().decode(AnyJSON.self, from: bytes)) == nil {
                do {
                    _ = try JSONValue.parse(bytes)
                } catch {
                    return "fixture \"\(body)\" is not valid JSON (\(error)); "
                        + "put deliberately broken fixtures under a \"\(malformedFolder)/\" folder"
                }
            }
        }
        return nil
    }

    /// Whether `path` is a directory that can be listed (symbolic links followed). Portable where
    /// `fileExists(atPath:isDirectory:)` is not: Apple's Foundation takes an `ObjCBool`.
    static func isDirectory(_ path: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    }
}

/// Decodes from any JSON document and keeps nothing: the decoder has checked the whole document first.
private struct AnyJSON: Decodable {
    init(from decoder: any Decoder) throws {}
}

extension PathTemplate {
    /// The template with parameter names erased, so `/a/{id}` and `/a/{key}` compare equal.
    var shape: String {
        "/" + segments.map { if case .literal(let text) = $0 { text } else { "{}" } }.joined(separator: "/")
    }
}
