import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Child processes the tests start (the built `mock-server`, its TLS bridge): started through ``run(_:)`` so
/// that none outlives the test process. Each test still ends its own children when it ends, passed or failed
/// (a `defer`); whatever is left when the test process exits (a test that failed before its `defer` was set,
/// or that timed out) is killed then, so no orphan keeps `swift test` from returning.
public enum ChildProcesses {
    private static let started = NSLock()
    nonisolated(unsafe) private static var pids: Set<Int32> = []
    private static let installed: Void = { atexit { ChildProcesses.killAll() } }()

    /// Starts `process` and remembers it until it has exited.
    public static func run(_ process: Process) throws {
        _ = installed
        try process.run()
        let pid = process.processIdentifier
        started.withLock { _ = pids.insert(pid) }
        let previous = process.terminationHandler
        process.terminationHandler = { ended in
            started.withLock { _ = pids.remove(pid) }
            previous?(ended)
        }
    }

    /// Asks `process` to stop (SIGTERM), and kills it if it has not within `grace` seconds; then reaps it.
    public static func end(_ process: Process, grace: TimeInterval = 5) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date(timeIntervalSinceNow: grace)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private static func killAll() {
        for pid in started.withLock({ pids }) { kill(pid, SIGKILL) }
    }
}
