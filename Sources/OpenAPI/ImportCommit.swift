#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Files put in place one by one, each by a rename, with what it replaced kept aside and the folders it
/// created noted, so that ``rollBack()`` leaves the folders as they were.
struct ImportCommit {
    let staging: ImportStaging
    private var placed: [(target: String, replaced: String?)] = []
    private var createdFolders: [String] = []
    private var counter = 0

    init(staging: ImportStaging) { self.staging = staging }

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
        while !Self.folderExists(folder.path) && folder.path != "/" {
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

    /// Whether a folder exists (symbolic links followed).
    private static func folderExists(_ path: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    }
}
