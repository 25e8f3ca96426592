/// An HTTP/1.1 server on POSIX sockets: a listener shared by a few event-loop threads, each answering
/// its connections through an ``HTTPResponder``. Knows nothing of what it serves.
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: UInt16
        /// Event-loop threads (at least one).
        public var threads: Int
        /// The readiness API; `nil` chooses ``IOBackend/environmentVariable`` if set, else the platform's best.
        public var io: IOBackend?
        public var settings = ServerSettings()

        public init(host: String, port: UInt16, threads: Int, io: IOBackend?) {
            self.host = host
            self.port = port
            self.threads = threads
            self.io = io
        }
    }

    private struct Running {
        var listener: Int32 = -1
        var port: UInt16 = 0
        var backend = IOBackend.platformDefault
        var loops: [EventLoop] = []
        var threads: [POSIX.ThreadHandle] = []
    }

    public let configuration: Configuration
    private let responder: any HTTPResponder
    private let running = Locked(Running())

    public init(configuration: Configuration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
    }

    /// The bound port, once started.
    public var port: UInt16 { running.current.port }

    public var isRunning: Bool { running.current.listener >= 0 }

    /// The readiness API the running server uses.
    public var ioBackend: IOBackend { running.current.backend }

    /// Binds the socket and starts the event loops; returns once the server accepts connections.
    /// Calling it on a running server does nothing.
    /// - Parameters:
    ///   - watched: Descriptors every loop also watches (see ``WatchedDescriptor``).
    ///   - beforeServing: Called with the bound port once the socket listens and before any connection is
    ///     served, so that what it prints comes before anything a request causes.
    /// - Throws: ``SocketError`` when the address is invalid or in use, or the I/O backend is unavailable.
    public func start(watching watched: [WatchedDescriptor] = [],
                       beforeServing: (_ port: UInt16) -> Void = { _ in }) throws(SocketError) {
        guard running.current.listener < 0 else { return }
        let backend: IOBackend
        if let chosen = configuration.io {
            guard chosen.isAvailable else { throw .unavailableBackend(chosen.description) }
            backend = chosen
        } else {
            backend = try IOBackend.fromEnvironment(POSIX.environment(IOBackend.environmentVariable))
        }
        let listener = try POSIX.makeListener(host: configuration.host, port: configuration.port, backlog: 1024)
        let port = POSIX.boundPort(listener)
        beforeServing(port)
        let count = max(1, configuration.threads)
        let budget = ConnectionBudget(descriptorLimit: POSIX.descriptorLimit(), loops: count)
        var loops: [EventLoop] = []
        var threads: [POSIX.ThreadHandle] = []
        do {
            // Every loop waits on the shared listener; epoll wakes one of them per connection, kqueue and
            // poll wake all, and the losers' accept finds nothing.
            for _ in 0..<count {
                let loop = try EventLoop(listener: listener, watched: watched, responder: responder,
                                         settings: configuration.settings, backend: backend, budget: budget)
                loops.append(loop)
                threads.append(try POSIX.startThread { loop.run() })
            }
        } catch {
            loops.forEach { $0.requestStop() }
            threads.forEach { $0.join() }
            POSIX.close(listener)
            throw error
        }
        running.withValue {
            $0 = Running(listener: listener, port: port, backend: backend, loops: loops, threads: threads)
        }
    }

    /// Stops accepting, lets in-flight responses finish (up to the shutdown grace), closes every
    /// connection and returns when the loops have ended. Safe to call more than once.
    /// - Returns: Whether the server was running.
    @discardableResult
    public func stop() -> Bool {
        let stopped = running.withValue { running in
            defer { running = Running(port: running.port, backend: running.backend) }
            return running
        }
        stopped.loops.forEach { $0.requestStop() }
        stopped.threads.forEach { $0.join() }
        guard stopped.listener >= 0 else { return false }
        POSIX.close(stopped.listener)
        return true
    }
}
