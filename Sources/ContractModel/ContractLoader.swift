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
    /// Each resource's seed items, by resource id (absent: it starts empty).
    package var seeds: [String: [JSONValue]] = [:]

    /// Every endpoint of every contract, in file order.
    package var endpoints: [ContractEndpoint] { contracts.flatMap(\.endpoints) }
}

/// Loads and validates `Contracts/*.json` against a fixtures folder, up front: a bad contract stops
/// the server at start with every problem named, never at request time.
package enum ContractLoader {
    /// JSON fixtures up to this size are checked by the package's strict reader; larger ones by the
    /// toolchain's decoder, which is quicker but accepts trailing commas.
    package static let strictFixtureLimit = 8 << 20

    /// Fixtures under a folder of this name may be invalid JSON on purpose.
    package static let malformedFolder = "malformed"

    /// - Parameters:
    ///   - contractsDirectory: A folder of `*.json` contract files.
    ///   - fixturesDirectory: The folder scenario `body` paths are relative to.
    /// - Throws: ``ContractLoadError`` listing every problem found.
    /// - Parameter progress: Told after each fixture is checked: files and bytes so far.
    package static func load(contractsDirectory: String, fixturesDirectory: String,
                             progress: (@Sendable (_ files: Int, _ bytes: Int) -> Void)? = nil) throws(ContractLoadError)
        -> ContractSet
    {
        var problems: [ContractProblem] = []
        var contracts: [Contract] = []
        var documents: [String: JSONValue] = [:]
        let files = contractFiles(in: contractsDirectory, problems: &problems)
        if !isDirectory(fixturesDirectory) {
            problems.append(ContractProblem(file: absolute(fixturesDirectory), path: "-",
                                            reason: "fixtures folder not found (run from the package root, or pass --fixtures <dir>)"))
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
            documents[file] = document
            var parser = ContractParser(file: file)
            let contract = parser.parse(document)
            problems += parser.problems
            if let contract { contracts.append(contract) }
        }
        problems += crossFileProblems(contracts)
        if isDirectory(fixturesDirectory) {
            var checker = FixtureChecker(root: fixturesDirectory, progress: progress)
            problems += checker.problems(of: contracts)
        }
        var seeds: [String: [JSONValue]] = [:]
        if isDirectory(fixturesDirectory) {
            for contract in contracts {
                for (index, resource) in contract.resources.enumerated() {
                    guard let file = resource.seedFile else { continue }
                    switch ResourceSeed.read(file, of: resource, fixturesDirectory: fixturesDirectory) {
                    case .success(let items): seeds[resource.id] = items
                    case .failure(let problem):
                        problems.append(ContractProblem(file: contract.file, path: "$.resources[\(index)].seed",
                                                        reason: problem.message))
                    }
                }
            }
        }
        guard problems.isEmpty else {
            throw ContractLoadError(problems: problems.map { $0.naming(in: documents[$0.file]) })
        }
        var set = ContractSet(contracts: contracts, fixturesDirectory: fixturesDirectory)
        set.seeds = seeds
        return set
    }

    private static func contractFiles(in directory: String, problems: inout [ContractProblem]) -> [String] {
        guard isDirectory(directory),
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else {
            problems.append(ContractProblem(file: absolute(directory), path: "-",
                                            reason: "contracts folder not found (run from the package root, or pass --contracts <dir>)"))
            return []
        }
        let files = names.filter { $0.hasSuffix(".json") }.sorted().map { directory + "/" + $0 }
        if files.isEmpty {
            problems.append(ContractProblem(file: absolute(directory), path: "-", reason: "holds no *.json contract"))
        }
        return files
    }

    /// Endpoint ids must be unique across files (the admin API addresses them), and no two endpoints
    /// may claim the same method and path.
    private static func crossFileProblems(_ contracts: [Contract]) -> [ContractProblem] {
        var problems: [ContractProblem] = []
        var ids: [String: String] = [:]
        var routes: [String: String] = [:]
        var statefulDomains: [String: String] = [:]
        for contract in contracts {
            // A domain's states are one list: two files of one domain cannot both declare them.
            if !contract.states.isEmpty {
                if let other = statefulDomains[contract.domain] {
                    problems.append(ContractProblem(file: contract.file, path: "$.states",
                                                    reason: "domain \"\(contract.domain)\" already declares its states in \(other)"))
                }
                statefulDomains[contract.domain] = contract.file
            }
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

    /// `path` from the root, so a message says which folder was looked for wherever the server was started.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Whether `path` is a directory that can be listed (symbolic links followed). Portable where
    /// `fileExists(atPath:isDirectory:)` is not: Apple's Foundation takes an `ObjCBool`.
    static func isDirectory(_ path: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    }
}

extension ContractProblem {
    /// The problem with its ``subject`` read from the contract document: the id of the endpoint and the
    /// name of the scenario its path points into.
    func naming(in document: JSONValue?) -> ContractProblem {
        guard subject == nil, let document, let endpointIndex = Self.index(after: "$.endpoints[", in: path),
              case .object(let root) = document, case .array(let endpoints)? = root["endpoints"],
              endpoints.indices.contains(endpointIndex), case .object(let endpoint) = endpoints[endpointIndex],
              case .string(let id)? = endpoint["id"] else { return self }
        var named = self
        named.subject = "endpoint \(id)"
        if let scenarioIndex = Self.index(after: ".scenarios[", in: path), case .array(let scenarios)? = endpoint["scenarios"],
           scenarios.indices.contains(scenarioIndex), case .object(let scenario) = scenarios[scenarioIndex],
           case .string(let name)? = scenario["name"] {
            named.subject! += ", scenario \"\(name)\""
        }
        return named
    }

    /// The number in `path` right after the first `marker`, as in `$.endpoints[3]`.
    private static func index(after marker: String, in path: String) -> Int? {
        guard let start = path.firstRange(of: marker)?.upperBound, let end = path[start...].firstIndex(of: "]") else {
            return nil
        }
        return Int(path[start..<end])
    }
}

extension PathTemplate {
    /// The template with parameter names erased, so `/a/{id}` and `/a/{key}` compare equal.
    var shape: String {
        "/" + segments.map { if case .literal(let text) = $0 { text } else { "{}" } }.joined(separator: "/")
    }
}
