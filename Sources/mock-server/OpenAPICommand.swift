#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import MockServer
import OpenAPI

/// `mock-server openapi export` and `mock-server openapi import`: the command line around the OpenAPI
/// library, its output and exit codes.
enum OpenAPICommand {
    /// Loads and checks the contracts as `validate` does (a problem exits 1), then writes the document to
    /// `file`, atomically, or to standard output.
    static func export(_ configuration: MockServer.Configuration, to file: String?) {
        let contracts: ContractSet
        do {
            contracts = try ContractLoader.load(contractsDirectory: configuration.contractsDirectory,
                                                fixturesDirectory: configuration.fixturesDirectory)
        } catch {
            for problem in error.problems { MockServerCommand.emit("error: \(problem)", toStandardError: true) }
            MockServerCommand.fail("\(error.problems.count) problem(s) found; nothing exported", code: 1)
        }
        let text = OpenAPIExporter(contracts: contracts).document().prettyPrinted()
        guard let file else {
            print(String(decoding: text, as: UTF8.self), terminator: "")
            return
        }
        do {
            try Data(text).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            MockServerCommand.fail("cannot write \(file): \(error)", code: 1)
        }
        MockServerCommand.emit("wrote \(file): \(contracts.endpoints.count) operations from \(contracts.contracts.count) "
                               + "contracts", toStandardError: true)
    }

    /// Reads the document, writes contracts and fixtures, validates them, and prints the report; any error
    /// exits 1 with nothing written.
    static func importDocument(_ spec: String, configuration: MockServer.Configuration, force: Bool) {
        let importer = OpenAPIImport(specFile: spec, contractsDirectory: configuration.contractsDirectory,
                                     fixturesDirectory: configuration.fixturesDirectory, force: force)
        let outcome: OpenAPIImport.Outcome
        do {
            outcome = try importer.run()
        } catch {
            for line in error.lines { MockServerCommand.emit("error: \(line)", toStandardError: true) }
            MockServerCommand.fail("import failed; nothing was written", code: 1)
        }
        MockServerCommand.emit(outcome.summary)
    }
}
