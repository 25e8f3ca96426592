#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPCore

/// Writes a set of files all or nothing (a file without bytes is removed). Each is first written in full beside its place
/// (`<name>.recording`), which finds a folder that cannot be created or written, or a full disk, before
/// any file is touched; then each is put in place with ``POSIX/writeFileAtomically(_:to:)`` (a reader
/// sees the old file or the new one, never half of one). Should that still fail, the files already
/// replaced get their old bytes back and the new ones and the folders made for them are removed.
struct FileSetWriter {
    struct File {
        let path: String
        /// `nil`: the file is removed.
        let bytes: [UInt8]?
    }

    static func write(_ files: [File]) throws(RecordingError) {
        var created: [String] = []
        var staged: [String] = []
        do {
            let written = files.filter { $0.bytes != nil }
            for folder in Set(written.map { parent(of: $0.path) }).sorted() { try createFolder(folder, created: &created) }
            for file in written {
                try POSIX.writeFileAtomically(file.bytes ?? [], to: file.path + ".recording")
                staged.append(file.path + ".recording")
            }
        } catch {
            staged.forEach(POSIX.removeFile)
            removeFolders(created)
            throw error as? RecordingError ?? RecordingError("nothing was written: \(error)")
        }
        var placed: [(path: String, previous: [UInt8]?)] = []
        for file in files {
            let previous = POSIX.readFile(file.path)
            do {
                if let bytes = file.bytes { try POSIX.writeFileAtomically(bytes, to: file.path) } else { POSIX.removeFile(file.path) }
                placed.append((file.path, previous))
            } catch {
                for (path, previous) in placed.reversed() {
                    if let previous { try? POSIX.writeFileAtomically(previous, to: path) } else { POSIX.removeFile(path) }
                }
                staged.forEach(POSIX.removeFile)
                removeFolders(created)
                throw RecordingError("nothing was written: \(error)")
            }
        }
        staged.forEach(POSIX.removeFile)
    }

    private static func parent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }

    /// Creates `folder` and any missing parent, noting each one made (outermost first).
    private static func createFolder(_ folder: String, created: inout [String]) throws(RecordingError) {
        var missing: [String] = []
        var current = folder
        while !current.isEmpty && current != "/" && current != "." && !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            current = parent(of: current)
        }
        if !current.isEmpty && !isFolder(current) {
            throw RecordingError("cannot create the folder \(missing.first ?? folder): \(current) is not a folder; "
                + "nothing was written")
        }
        for path in missing.reversed() {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            } catch {
                throw RecordingError("cannot create the folder \(path) (\(error)); nothing was written")
            }
            created.append(path)
        }
    }

    private static func removeFolders(_ folders: [String]) {
        for folder in folders.reversed() { try? FileManager.default.removeItem(atPath: folder) }
    }

    static func isFolder(_ path: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    }
}
