#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel

/// A folder beside the contracts folder (`.openapi-import-<uuid>`) where the import's files are written
/// and loaded first, and where files they replace wait until the import is done.
struct Staging {
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

/// Files put in place one by one, each by a rename, with what it replaced kept aside and the folders it
/// created noted, so that ``rollBack()`` leaves the folders as they were.
struct Commit {
    let staging: Staging
    private var placed: [(target: String, replaced: String?)] = []
    private var createdFolders: [String] = []
    private var counter = 0

    init(staging: Staging) { self.staging = staging }

    mutating func place(_ bytes: [UInt8], at target: String) throws {
        let files = FileManager.default
        try createFolders(for: target)
        counter += 1
        let fresh = staging.root + "/new-\(counter)"
        try Data(bytes).write(to: URL(fileURLWithPath: fresh))
        var replaced: String?
        if files.fileExists(atPath: target) {
            let aside = staging.root + "/replaced/\(counter)"
            try files.moveItem(atPath: target, toPath: aside)
            replaced = aside
        }
        placed.append((target, replaced))
        try files.moveItem(atPath: fresh, toPath: target)
    }

    private mutating func createFolders(for target: String) throws {
        var missing: [String] = []
        var folder = URL(fileURLWithPath: target).deletingLastPathComponent()
        while !ContractLoaderFolders.exists(folder.path) && folder.path != "/" {
            missing.append(folder.path)
            folder = folder.deletingLastPathComponent()
        }
        for path in missing.reversed() {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            createdFolders.append(path)
        }
    }

    /// Puts every replaced file back, removes every new one and every folder created for them.
    func rollBack() {
        let files = FileManager.default
        for (target, replaced) in placed.reversed() {
            try? files.removeItem(atPath: target)
            if let replaced { try? files.moveItem(atPath: replaced, toPath: target) }
        }
        for folder in createdFolders.reversed() { try? files.removeItem(atPath: folder) }
    }
}

/// Whether a folder exists (symbolic links followed).
enum ContractLoaderFolders {
    static func exists(_ path: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    }
}
