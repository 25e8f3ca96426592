#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore
import Recorder

/// `mock-server verify`: checks the contracts against the real backend they describe (``VerifyPlanner``,
/// ``VerifyRunner``, ``VerifyJudge``) and reports drift (``VerifyReport``). Sends only GET, HEAD and OPTIONS unless
/// ``VerifyOptions/allowWrites``.
package enum Verification {
    /// The ``ContractProblem/file`` of a problem with `--only` (an id no endpoint has): a usage error, not a contract's.
    package static let onlyProblemFile = "--only"

    /// Verifies the contracts in the folders against `target`.
    /// - Parameter proxy: The relay to the backend, its TLS bridge started for an `https://` target.
    package static func run(contractsDirectory: String, fixturesDirectory: String, proxy: UpstreamProxy,
                           options: VerifyOptions) throws(ContractLoadError) -> VerifyReport {
        let contracts = try ContractLoader.load(contractsDirectory: contractsDirectory,
                                                fixturesDirectory: fixturesDirectory)
        let known = Set(contracts.endpoints.map(\.id))
        let unknown = options.only.subtracting(known).sorted()
        guard unknown.isEmpty else {
            throw ContractLoadError(problems: unknown.map { id in
                ContractProblem(file: onlyProblemFile, path: id, reason: "no endpoint has the id \"\(id)\"; the ids are: "
                    + known.sorted().joined(separator: ", "))
            })
        }
        let root = fixturesDirectory
        let planner = VerifyPlanner(
            contracts: contracts, options: options, environment: ProcessInfo.processInfo.environment,
            listFolder: { folder in
                ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? root : root + "/" + folder)) ?? [])
                    .sorted()
            },
            readFixture: { path in
                guard FixturePath.staysInside(path) else { return nil }
                return FileManager.default.contents(atPath: root + "/" + path).map(Array.init)
            })
        let results = VerifyRunner(proxy: proxy, options: options).run(planner.cases())
        return VerifyReport(target: proxy.upstream.url, results: results)
    }
}
