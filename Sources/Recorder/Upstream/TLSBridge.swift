import HTTPCore
import MockServer

/// The helper process that speaks HTTPS for an `https://` target: `mock-server-tls`, found beside the running
/// executable, listening on a loopback port and relaying each plain HTTP request to the target through the
/// toolchain's URLSession. Kept out of `mock-server` so the serve path never loads Foundation's networking.
/// It ends when ``stop()`` is called, and by itself when this process goes away (its standard input closes).
public final class TLSBridge: Sendable {
    /// The helper's file name, beside `mock-server`.
    public static let executableName = "mock-server-tls"

    /// Why the bridge could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The loopback port the bridge listens on.
    public let port: UInt16
    /// What each request to the bridge carries in ``BridgeFailure/tokenField``: made up for this run.
    public let token: String
    public let path: String
    private let child: POSIX.Child
    private let ended = Locked<String?>(nil)
    private let stopped = Locked(false)

    private init(port: UInt16, token: String, path: String, child: POSIX.Child) {
        self.port = port
        self.token = token
        self.path = path
        self.child = child
    }

    /// Starts the bridge to `target` and waits (up to 10 s) for the port it prints on its first line.
    /// - Parameters:
    ///   - timeout: Seconds the bridge's URLSession waits for the target (whole seconds, at least 1).
    ///   - directory: Where the helper is; by default the running executable's folder.
    /// - Throws: ``StartError`` naming the path when the helper is missing, cannot start or prints no port.
    public static func start(
        target: UpstreamTarget,
        timeout: Double,
        directory: String? = nil
    ) throws(StartError) -> TLSBridge {
        guard let folder = directory ?? POSIX.executablePath().map(Self.folder(of:)) else {
            throw StartError(description: "cannot find the running executable, so not \(executableName) beside it")
        }
        let path = folder + "/" + executableName
        guard POSIX.isExecutable(path) else {
            throw StartError(description: "\(target.url) needs the TLS bridge \(path), which is missing or not "
                + "executable; build it with `swift build` (which builds mock-server and \(executableName) together) "
                + "and keep both binaries in the same folder")
        }
        let child: POSIX.Child
        let token = MockServer.randomToken()
        do {
            child = try POSIX.spawn(path, arguments: ["--target", target.secureURL, "--token", token, "--port", "0",
                                                      "--timeout", String(Int(max(1, timeout.rounded(.up))))])
        } catch {
            throw StartError(description: "cannot start the TLS bridge \(path): \(error)")
        }
        let deadline = POSIX.monotonicNanoseconds() + 10_000_000_000
        guard let line = POSIX.readFirstLine(of: child, deadline: deadline),
              let port = UInt16(line.trimmingSpaces()) else {
            POSIX.terminate(child)
            throw StartError(description: "the TLS bridge \(path) did not print its port (see its message above)")
        }
        return TLSBridge(port: port, token: token, path: path, child: child)
    }

    /// How the bridge ended ("exited with status 1", "killed by signal 9"), or `nil` while it runs.
    public var exit: String? {
        ended.withValue { ended in
            if ended == nil, !stopped.current { ended = POSIX.exitDescription(of: child) }
            return ended
        }
    }

    /// Ends the bridge and waits for it. Only the first call does anything.
    public func stop() {
        let first = stopped.withValue { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { POSIX.terminate(child) }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
