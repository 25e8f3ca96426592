#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files, read with plain system calls (no Foundation on the request path).
extension POSIX {
    /// A regular file's modification time in nanoseconds and its size, or `nil` if it is not one.
    public static func fileStamp(_ path: String) -> (modified: Int, size: Int)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (LibC.modificationNanoseconds(info), Int(info.st_size))
    }

    /// Removes the file at `path`, if there is one.
    public static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// The whole file, or `nil` if it cannot be read.
    public static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = LibC.readDescriptor(fd, &chunk, chunk.count)
            if count == 0 { return bytes }
            if count < 0 { if errno == EINTR { continue } else { return nil } }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}

/// A file system call that failed, with the path and the operating system's reason.
public struct FileError: Error, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let reason: String

    /// Captures the current `errno`.
    static func current(_ operation: String, _ path: String) -> FileError {
        FileError(operation: operation, path: path, reason: String(cString: strerror(errno)))
    }

    public var description: String { "cannot \(operation) \(path): \(reason)" }
}

extension POSIX {
    /// Replaces the file at `path` with `bytes` so that, whenever the process or the machine stops, the
    /// file holds either its old bytes or all the new ones: written to a temporary file beside it,
    /// flushed to the disk, renamed over it, and the folder flushed so the rename lasts.
    public static func writeFileAtomically(_ bytes: [UInt8], to path: String) throws(FileError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .current("create", temporary) }
        var failure: FileError?
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = LibC.writeDescriptor(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = .current("write", temporary)
                    return
                }
                written += count
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = .current("flush", temporary) }
        _ = LibC.closeDescriptor(fd)
        if failure == nil && rename(temporary, path) != 0 { failure = .current("rename \(temporary) to", path) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // The new file is in place: from here on nothing may report a failure, or a caller would undo a
        // change the disk keeps. Flushing the folder makes the rename survive a power cut where it can
        // (some file systems refuse fsync on a folder).
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let folderFD = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_CLOEXEC)
        guard folderFD >= 0 else { return }
        _ = fsync(folderFD)
        _ = LibC.closeDescriptor(folderFD)
    }
}
