import ContractModel
import Foundation
import Testing

/// Every (endpoint, scenario) pair of `Contracts/*.json`, read when the suite is loaded: adding a
/// scenario to a contract adds a test case with no Swift change.
enum ContractCatalog {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let contractsDirectory = root + "/Contracts"
    static let fixturesDirectory = root + "/Fixtures"

    /// The bundled contracts. A contract that does not load fails every case with its problems.
    static let contracts: Result<ContractSet, ContractLoadError> = Result { () throws(ContractLoadError) in
        try ContractLoader.load(contractsDirectory: contractsDirectory, fixturesDirectory: fixturesDirectory)
    }

    static var cases: [ContractCase] {
        guard case .success(let set) = contracts else { return [] }
        return set.endpoints.flatMap { endpoint in
            endpoint.scenarios.map { ContractCase(endpoint: endpoint, scenario: $0) }
        }
    }
}

/// One scenario of one endpoint, as a test argument named `<domain>.<endpoint>.<scenario>`.
struct ContractCase: Sendable, CustomTestStringConvertible {
    let endpoint: ContractEndpoint
    let scenario: Scenario

    var testDescription: String { "\(endpoint.domain).\(endpoint.id).\(scenario.name)" }
}
