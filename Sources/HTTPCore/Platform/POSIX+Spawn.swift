#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helper processes: where the running executable is, starting a program beside it with pipes on its
/// standard input and output, and ending it. For `mock-server`'s TLS bridge; Foundation's `Process` would
/// load the whole of Foundation into a binary that only links FoundationEssentials.
extension POSIX {
    /// A started child: its standard input (held open by the parent, so it sees end-of-file when the parent
    /// goes away) and its standard output (non-blocking).
    public struct Child: Sendable {
        public let pid: Int32
        public let standardInput: Int32
        public let standardOutput: Int32
    }

    /// The absolute path of the running executable, symbolic links resolved (``LibC/executablePath(into:)``).
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard LibC.executablePath(into: &buffer) else { return nil }
        let path = string(nulTerminated: buffer)
        return realPath(path) ?? path
    }

    /// Whether `path` names an executable file.
    public static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// Starts `path` with `arguments`, its standard input and output on pipes to this process, its standard
    /// error shared with this one, and no signal blocked (this process may block them all for `sigwait`).
    /// - Throws: ``ClientError/failed(_:)`` with the system's reason.
    public static func spawn(_ path: String, arguments: [String]) throws(ClientError) -> Child {
        guard let input = LibC.makePipe() else { throw .failed("pipe: " + String(cString: strerror(errno))) }
        guard let output = LibC.makePipe() else {
            close(input.0)
            close(input.1)
            throw .failed("pipe: " + String(cString: strerror(errno)))
        }
        // The child's ends block; the parent's stay non-blocking and close-on-exec.
        _ = fcntl(input.0, F_SETFL, 0)
        _ = fcntl(output.1, F_SETFL, 0)
        defer {
            close(input.0)
            close(output.1)
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.0, 0)
        posix_spawn_file_actions_adddup2(&actions, output.1, 1)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, LibC.environment)
        guard code == 0 else {
            close(input.1)
            close(output.0)
            throw .failed("posix_spawn \(path): " + String(cString: strerror(code)))
        }
        return Child(pid: pid, standardInput: input.1, standardOutput: output.0)
    }

    /// Reads `child`'s standard output up to its first newline, waiting until `deadline` (monotonic).
    /// - Returns: the line without its newline, or `nil` if the child closed its output or the deadline passed.
    public static func readFirstLine(of child: Child, deadline: UInt64) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            let count = LibC.readDescriptor(child.standardOutput, &byte, 1)
            if count == 1 {
                if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
                line.append(byte)
            } else if count == 0 {
                return nil
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                if wait(child.standardOutput, forWriting: false, deadline: deadline) != nil { return nil }
            } else {
                return nil
            }
        }
        return nil
    }

    /// Whether `child` has ended (it is then reaped), and how: "exited with status N" or "killed by signal N".
    public static func exitDescription(of child: Child) -> String? {
        var status: Int32 = 0
        let result = waitpid(child.pid, &status, WNOHANG)
        if result == 0 { return nil }
        guard result == child.pid else { return "ended" }
        let low = status & 0x7f
        return low == 0 ? "exited with status \((status >> 8) & 0xff)" : "killed by signal \(low)"
    }

    /// Closes `child`'s pipes, sends it SIGTERM and reaps it.
    public static func terminate(_ child: Child) {
        close(child.standardInput)
        close(child.standardOutput)
        kill(child.pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(child.pid, &status, 0)
    }
}
