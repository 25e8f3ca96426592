#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel

/// `mock-server openapi import`: reads a document, translates it (``OpenAPIImporter``), and writes the
/// contracts and fixtures only once all of them exist and load cleanly.
///
/// Nothing is half-written: every file is first written to a staging folder beside the contracts folder and
/// loaded there as `validate` would; then each is renamed into place (a file it replaces moved aside), and
/// the whole target folders are loaded again, with any contracts already there. If that fails, every file is
/// put back as it was. A file the last import wrote and nobody edited since (``ImportManifest``) is
/// overwritten; one a person edited is kept and named, unless `force`.
package struct OpenAPIImport {
    package let specFile: String
    package let contractsDirectory: String
    package let fixturesDirectory: String
    package let force: Bool

    package init(specFile: String, contractsDirectory: String, fixturesDirectory: String, force: Bool) {
        self.specFile = specFile
        self.contractsDirectory = contractsDirectory
        self.fixturesDirectory = fixturesDirectory
        self.force = force
    }

    /// What an import did.
    package struct Outcome: Sendable {
        package let report: ImportReport
        package let written: [String]
        package let unchanged: Int
        package let plan: ImportPlan
        /// `validate`'s line for the folders after the import.
        package let validated: String

        /// The lines the command prints.
        package var summary: String {
            let contracts = plan.contracts.keys.sorted()
            var lines = ["imported \(plan.endpointCount) endpoints and \(plan.scenarioCount) scenarios into "
                + "\(contracts.count) contract(s): " + contracts.joined(separator: ", ")]
            let fixtures = written.filter { $0.hasPrefix("fixtures/") }.count
            lines.append("wrote \(written.count - fixtures) contract file(s) and \(fixtures) fixture file(s); "
                + "\(unchanged) file(s) were already up to date")
            if !report.kept.isEmpty {
                lines.append("kept \(report.kept.count) file(s) edited since the last import (--force overwrites them):")
                lines += report.kept.map { "  " + $0 }
            }
            if report.skipped.isEmpty {
                lines.append("nothing was left out")
            } else {
                lines.append("not expressed in the contracts (\(report.skipped.count)):")
                lines += report.skipped.map { "  " + $0.description }
            }
            lines.append(validated)
            return lines.joined(separator: "\n")
        }
    }

    private struct PlannedFile {
        /// `contracts/<name>` or `fixtures/<path>`.
        let key: String
        let target: String
        let bytes: [UInt8]
    }

    package func run() throws(OpenAPIImportError) -> Outcome {
        guard let data = FileManager.default.contents(atPath: specFile) else {
            throw OpenAPIImportError(lines: ["\(specFile): cannot be read"])
        }
        let name = String(specFile.split(separator: "/").last ?? Substring(specFile))
        var plan = try OpenAPIImporter.translate(file: name, bytes: Array(data))
        var files: [PlannedFile] = plan.fixtures.sorted { $0.key < $1.key }.map {
            PlannedFile(key: "fixtures/" + $0.key, target: fixturesDirectory + "/" + $0.key, bytes: $0.value)
        }
        files += plan.contracts.sorted { $0.key < $1.key }.map {
            PlannedFile(key: "contracts/" + $0.key, target: contractsDirectory + "/" + $0.key,
                        bytes: ContractWriter.bytes($0.value))
        }
        let staging = try ImportStaging(beside: contractsDirectory)
        defer { staging.remove() }
        try staging.validate(files.map { ($0.key, $0.bytes) })

        var manifest = ImportManifest(contractsDirectory: contractsDirectory)
        manifest.source = name
        var toWrite: [PlannedFile] = []
        var unchanged = 0
        for file in files {
            guard let existing = FileManager.default.contents(atPath: file.target).map(Array.init) else {
                toWrite.append(file)
                continue
            }
            if existing == file.bytes {
                unchanged += 1
                manifest.hashes[file.key] = ImportManifest.hash(file.bytes)
            } else if force || manifest.hashes[file.key] == ImportManifest.hash(existing) {
                toWrite.append(file)
            } else {
                plan.report.keep(file.target)
            }
        }
        var commit = ImportCommit(staging: staging)
        do {
            for file in toWrite { try commit.place(file.bytes, at: file.target) }
            for file in toWrite { manifest.hashes[file.key] = ImportManifest.hash(file.bytes) }
            try commit.place(manifest.json(), at: contractsDirectory + "/" + ImportManifest.fileName)
            let loaded = try ContractLoader.load(contractsDirectory: contractsDirectory,
                                                 fixturesDirectory: fixturesDirectory)
            let scenarios = loaded.endpoints.reduce(0) { $0 + $1.scenarios.count }
            return Outcome(report: plan.report, written: toWrite.map(\.key), unchanged: unchanged, plan: plan,
                           validated: "validated: ok: \(loaded.contracts.count) contracts, \(loaded.endpoints.count) "
                               + "endpoints, \(scenarios) scenarios")
        } catch let error as ContractLoadError {
            commit.rollBack()
            throw OpenAPIImportError(lines: error.problems.map(\.description)
                + ["the imported contracts do not load together with those already in \(contractsDirectory); "
                    + "nothing was changed"])
        } catch {
            commit.rollBack()
            throw OpenAPIImportError(lines: ["cannot write the imported files: \(error)"])
        }
    }
}
