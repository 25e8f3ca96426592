#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPCore

/// The folders as they were before a recording session's first write. A recorder flushes more than once
/// (`POST /__mock/record/flush`, then the signal that stops it), and each flush writes everything recorded
/// so far: it must see the folders without what the earlier flushes put there, or its own output would
/// read as a person's contracts (refused without `--merge`, merged into twice with it).
///
/// Holds, for every file a write of the session touched, its bytes before the first of them (`nil`: the
/// file did not exist). Reads go through it; the disk holds the rest.
struct FolderBaseline {
    private(set) var originals: [String: [UInt8]?] = [:]

    /// The bytes of `path` as they were before the session wrote anything.
    func read(_ path: String) -> [UInt8]? {
        if let original = originals[path] { return original }
        return POSIX.readFile(path)
    }

    /// The names in `folder` (not its subfolders) as they were before the session wrote anything.
    func names(in folder: String) -> [String] {
        let onDisk = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return onDisk.filter { name in
            let path = folder + "/" + name
            guard originals[path] == .some(nil) else { return true }
            return false
        }
    }

    /// Whether `folder` held a file anywhere below it before the session wrote anything.
    func holdsFiles(_ folder: String) -> Bool {
        let subpaths = (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []
        return subpaths.contains { subpath in
            let path = folder + "/" + subpath
            return !FileSetWriter.isFolder(path) && originals[path] != .some(nil)
        }
    }

    /// Notes the state of every path of `files` not noted yet: call before writing them.
    mutating func note(_ paths: [String]) {
        for path in paths where originals[path] == nil { originals[path] = .some(POSIX.readFile(path)) }
    }

    /// What puts back the files an earlier write touched that `paths` leaves alone: their original bytes,
    /// or their removal.
    func restorations(besides paths: Set<String>) -> [FileSetWriter.File] {
        originals.keys.sorted().filter { !paths.contains($0) }.map { FileSetWriter.File(path: $0, bytes: originals[$0] ?? nil) }
    }
}
