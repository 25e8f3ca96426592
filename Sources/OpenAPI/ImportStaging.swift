#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel

/// A folder beside the contracts folder (`.openapi-import-<uuid>`) where the import's files are written
/// and loaded first, and where files they replace wait until the import is done.
struct ImportStaging {
    let root: String

    init(beside contractsDirectory: String) throws(OpenAPIImportError) {
        let parent = URL(fileURLWithPath: contractsDirectory).deletingLastPathComponent().path
        root = parent + "/.openapi-import-" + UUID().uuidString
        do {
            try FileManager.default.createDirectory(atPath: root + "/Contracts", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/Fixtures", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/replaced", withIntermediateDirectories: true)
        } catch {
            throw OpenAPIImportError(lines: ["cannot create a staging folder in \(parent): \(error)"])
        }
    }

    /// Writes the files (`contracts/<name>`, `fixtures/<path>`) and loads them as `validate` does.
    /// - Throws: every problem, named by the file's place in the target folders.
    func validate(_ files: [(key: String, bytes: [UInt8])]) throws(OpenAPIImportError) {
        do {
            for (key, bytes) in files {
                let path = stagedPath(key)
                try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                        withIntermediateDirectories: true)
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            }
        } catch {
            throw OpenAPIImportError(lines: ["cannot write to the staging folder \(root): \(error)"])
        }
        do {
            _ = try ContractLoader.load(contractsDirectory: root + "/Contracts", fixturesDirectory: root + "/Fixtures")
        } catch {
            throw OpenAPIImportError(lines: error.problems.map {
                $0.description.replacing(root + "/Contracts/", with: "").replacing(root + "/Fixtures", with: "Fixtures")
            } + ["the contracts made from the document do not load (its x-mock extensions, if any, may be at fault)"])
        }
    }

    private func stagedPath(_ key: String) -> String {
        key.hasPrefix("contracts/") ? root + "/Contracts/" + key.dropFirst("contracts/".count)
            : root + "/Fixtures/" + key.dropFirst("fixtures/".count)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
