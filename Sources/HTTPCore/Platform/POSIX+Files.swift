#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files, read with plain system calls (no Foundation on the request path).
extension POSIX {
    /// A regular file's modification time in nanoseconds and its size, or `nil` if it is not one.
    package static func fileStamp(_ path: String) -> (modified: Int, size: Int)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (LibC.modificationNanoseconds(info), Int(info.st_size))
    }

    /// The whole file, or `nil` if it cannot be read.
    package static func readFile(_ path: String) -> [UInt8]? {
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
