import Foundation
import HTTPCore
import MockServer
@testable import Recorder
import TestSupport

/// What the proxy's socket tests share: a backend on a raw socket, and a server relaying to it.
enum ProxyHarness {
    /// A backend on a raw socket on 127.0.0.1: each connection it accepts is served by `serve` on a thread of its own
    /// and closed when `serve` returns; it counts the connections it accepted and those that ended.
    final class Listener: @unchecked Sendable {
        // @unchecked: the counters are read and written under `lock`; the listener is closed once, by its thread.
        let port: UInt16
        private let listener: Int32
        private let lock = NSLock()
        private var acceptedCount = 0
        private var closedCount = 0
        private var stopped = false

        /// - Parameter receiveBuffer: `SO_RCVBUF` for the accepted connections (set on the listener, which they inherit).
        init(receiveBuffer: Int32? = nil, serve: @escaping @Sendable (Int32) -> Void) throws {
            _ = TestProcess.descriptorLimit
            listener = try POSIX.makeListener(host: "127.0.0.1", port: 0, backlog: 16)
            if var size = receiveBuffer {
                setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            port = POSIX.boundPort(listener)
            Thread.detachNewThread { [self] in accept(serve) }
        }

        var accepted: Int { lock.withLock { acceptedCount } }
        /// Connections that ended, by either side.
        var closed: Int { lock.withLock { closedCount } }

        /// Stops accepting; the accepting thread closes the listener within 0.1 s (closed here, its number could go to
        /// another test's socket while that thread still waits on it).
        func stop() {
            lock.withLock { stopped = true }
        }

        private func accept(_ serve: @escaping @Sendable (Int32) -> Void) {
            defer { POSIX.close(listener) }
            while !lock.withLock({ stopped }) {
                guard POSIX.wait(listener, forWriting: false, deadline: POSIX.monotonicNanoseconds() + 100_000_000) == nil,
                      case .accepted(let fd) = POSIX.accept(listener) else { continue }
                lock.withLock { acceptedCount += 1 }
                Thread.detachNewThread { [self] in
                    serve(fd)
                    POSIX.close(fd)
                    lock.withLock { closedCount += 1 }
                }
            }
        }
    }

    /// Runs `body` with a server (one event loop) relaying to the backend at `port` with `--proxy`: everything but
    /// `POST /items`, which the server's own contract answers with 204.
    static func withProxy(to port: UInt16, timeout: Double, recording: Recording? = nil, bodyTimeout: Double = 30,
                          _ body: (MockServer, UpstreamProxy) throws -> Void) throws {
        let folder = try ScratchContracts(contracts: [("items.json", #"""
            {"domain": "items", "endpoints": [{"id": "create", "method": "POST", "path": "/items",
             "scenarios": [{"name": "s", "status": 204, "expect": "success"}]}]}
            """#)], fixtures: [])
        var configuration = MockServer.Configuration(port: 0, contractsDirectory: folder.contracts,
                                                     fixturesDirectory: folder.fixtures)
        configuration.threads = 1
        configuration.bodyTimeout = bodyTimeout
        let proxy = UpstreamProxy(target: try UpstreamTarget(parsing: "http://127.0.0.1:\(port)"), timeout: timeout,
                                  recording: recording)
        configuration.upstream = proxy
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer {
            server.stop()
            proxy.stop()
        }
        try body(server, proxy)
    }
}
