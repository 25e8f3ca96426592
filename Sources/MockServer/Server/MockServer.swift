import ContractModel

/// The mock API server: serves `Fixtures/` as `Contracts/` describe, over HTTP/1.1 on POSIX sockets.
///
/// Embed it in a test suite on a free port:
///
/// ```swift
/// let server = try MockServer(configuration: .init(
///     port: 0, contractsDirectory: "Contracts", fixturesDirectory: "Fixtures"))
/// try server.start()
/// let client = APIClient(environment: .local(port: Int(server.port)))
/// // ...
/// server.stop()
/// ```
public final class MockServer: Sendable {
    /// How the server is started.
    public struct Configuration: Sendable {
        /// The IPv4 address to bind; `0.0.0.0` makes the server reachable from other devices.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one (read it from ``MockServer/port`` after ``MockServer/start()``).
        public var port: UInt16 = 8080
        public var contractsDirectory = "Contracts"
        public var fixturesDirectory = "Fixtures"
        /// A scenario name every endpoint that has it plays by default.
        public var scenario: String?
        public var logFormat = AccessLog.Format.off
        /// Event-loop threads; by default one per core, at most four.
        public var threads = min(System.processorCount(), 4)
        /// How many requests the journal keeps.
        public var journalCapacity = 1_000
        /// Seconds a client may take to send a request's head, its body, or to send nothing between requests.
        public var headerTimeout = 10.0
        public var bodyTimeout = 30.0
        public var idleTimeout = 60.0

        public init(
            host: String = "127.0.0.1",
            port: UInt16 = 8080,
            contractsDirectory: String = "Contracts",
            fixturesDirectory: String = "Fixtures",
            scenario: String? = nil,
            logFormat: AccessLog.Format = .off
        ) {
            self.host = host
            self.port = port
            self.contractsDirectory = contractsDirectory
            self.fixturesDirectory = fixturesDirectory
            self.scenario = scenario
            self.logFormat = logFormat
        }
    }

    public let configuration: Configuration
    /// The loaded, validated contracts.
    public let contracts: ContractSet
    private let handler: RequestHandler
    private let state = Locked(RunState())

    private struct RunState {
        var listener: Int32 = -1
        var port: UInt16 = 0
        var loops: [EventLoop] = []
        var threads: [System.ThreadHandle] = []
    }

    /// Loads and validates the contracts and fixtures.
    /// - Throws: ``ContractLoadError`` listing every problem, including an unknown `scenario`.
    public init(configuration: Configuration) throws(ContractLoadError) {
        self.configuration = configuration
        let contracts = try ContractLoader.load(contractsDirectory: configuration.contractsDirectory,
                                                fixturesDirectory: configuration.fixturesDirectory)
        if let scenario = configuration.scenario,
           !contracts.endpoints.contains(where: { $0.scenario(named: scenario) != nil }) {
            let known = Set(contracts.endpoints.flatMap { $0.scenarios.map(\.name) }).sorted()
            throw ContractLoadError(problems: [ContractProblem(
                file: "--scenario", path: "-",
                reason: "no endpoint has a scenario \"\(scenario)\"; known: " + known.joined(separator: ", "))])
        }
        self.contracts = contracts
        handler = RequestHandler(contracts: contracts, serverScenario: configuration.scenario,
                                 journalCapacity: configuration.journalCapacity)
    }

    /// The requests received so far.
    public var journal: Journal { handler.journal }

    /// The bound port, once started.
    public var port: UInt16 { state.current.port }

    /// Binds the socket and starts the event loops; returns once the server accepts connections.
    /// Calling it on a running server does nothing.
    /// - Throws: ``SocketError`` when the address is invalid or in use.
    public func start() throws(SocketError) {
        guard state.current.listener < 0 else { return }
        System.ignoreSIGPIPE()
        System.raiseDescriptorLimit()
        let listener = try System.makeListener(host: configuration.host, port: configuration.port, backlog: 1024)
        var settings = EventLoop.Settings()
        settings.headerTimeout = Self.nanoseconds(configuration.headerTimeout)
        settings.bodyTimeout = Self.nanoseconds(configuration.bodyTimeout)
        settings.idleTimeout = Self.nanoseconds(configuration.idleTimeout)
        let log = AccessLog(format: configuration.logFormat)
        var loops: [EventLoop] = []
        var threads: [System.ThreadHandle] = []
        let fixtureChanges = handler.fixtures.startWatching()
        do {
            #if os(Linux)
            let count = max(1, configuration.threads)
            #else
            let count = 1 // poll(2) loops cannot share a listener fairly; one loop serves a laptop well.
            #endif
            for _ in 0..<count {
                let loop = try EventLoop(listener: listener, fixtureChanges: fixtureChanges, handler: handler,
                                         log: log, settings: settings)
                loops.append(loop)
                threads.append(try System.startThread { loop.run() })
            }
        } catch {
            loops.forEach { $0.requestStop() }
            threads.forEach { $0.join() }
            handler.fixtures.stopWatching()
            System.close(listener)
            throw error
        }
        let port = System.boundPort(listener)
        state.withValue { $0 = RunState(listener: listener, port: port, loops: loops, threads: threads) }
    }

    /// Stops accepting, lets in-flight responses finish (up to five seconds), closes every connection
    /// and returns when the loops have ended. Safe to call more than once.
    public func stop() {
        let running = state.withValue { state in
            let running = state
            state.loops = []
            state.threads = []
            state.listener = -1
            return running
        }
        running.loops.forEach { $0.requestStop() }
        running.threads.forEach { $0.join() }
        if running.listener >= 0 {
            handler.fixtures.stopWatching()
            System.close(running.listener)
        }
    }

    /// Makes `scenario` the active scenario of endpoint `endpointID` (as `PUT /__mock/scenarios/{id}`).
    /// - Returns: `false` when there is no such endpoint or scenario.
    @discardableResult
    public func setScenario(_ scenario: String, for endpointID: String) -> Bool {
        (try? handler.scenarios.set(endpointID: endpointID, scenario: scenario)) != nil
    }

    /// Returns every endpoint to its default scenario.
    public func resetScenarios() { handler.scenarios.resetAll() }

    private static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0.001, seconds) * 1_000_000_000) }
}
