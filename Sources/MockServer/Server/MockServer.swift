import ContractModel
import HTTPCore

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
        /// The address to bind: `127.0.0.1` (the default), `::1`, or `0.0.0.0` / `::` to be reachable from
        /// other devices.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one (read it from ``MockServer/port`` after ``MockServer/start()``).
        public var port: UInt16 = 8080
        /// The folder of contract files (`--contracts`).
        public var contractsDirectory = "Contracts"
        /// The folder the contracts' fixture paths are relative to (`--fixtures`).
        public var fixturesDirectory = "Fixtures"
        /// A scenario name every endpoint that has it plays by default.
        public var scenario: String?
        /// The access log on standard output (`--log`); off for a server embedded in tests.
        public var logFormat = AccessLog.Format.off
        /// Event-loop threads; by default one per processor this process may use (CPU affinity and cgroup
        /// quota on Linux, active processors on Darwin), at most four.
        public var threads = MockServer.defaultThreadCount
        /// The readiness API; `nil` chooses `IOBackend.environmentVariable` (`MOCK_SERVER_IO`) if set, else the platform's best.
        public var io: IOBackend?
        /// Host names (besides loopback ones and the bound address) under which the admin API answers.
        public var allowedHosts: [String] = []
        /// A token every admin request must carry in `X-Mock-Admin-Token`. Without one, a server bound
        /// beyond loopback makes one up and demands it from peers that are not loopback
        /// (``MockServer/adminToken``).
        public var adminToken: String?
        /// Headers whose values the journal stores only as scheme and length, besides `Authorization`,
        /// `Proxy-Authorization`, `Cookie` and `Set-Cookie`.
        public var redactedHeaders: [String] = []
        /// Keeps credential header values in the journal as sent (for debugging one's own token).
        public var journalSecrets = false
        /// Cross-origin access to the mock endpoints for web front-ends; `nil` (the default) sends no
        /// CORS headers.
        public var cors: CORSPolicy?
        /// Told after each fixture is checked while the contracts load: files and bytes so far (the
        /// executable prints progress when loading takes more than a second).
        public var loadProgress: (@Sendable (_ files: Int, _ bytes: Int) -> Void)?
        /// Told after each contract reload (a change to the contract files, or `POST /__mock/reload`), with
        /// the problems that kept a broken set from replacing the served one.
        public var onReload: (@Sendable (ReloadOutcome) -> Void)?
        /// How many requests the journal keeps.
        public var journalCapacity = 1_000
        /// Seconds a client may take to send a request's head, its body, or to send nothing between requests.
        public var headerTimeout = 10.0
        /// Seconds a client may take to send a request's body, once its head arrived.
        public var bodyTimeout = 30.0
        /// Seconds a kept-alive connection may stay silent between two requests.
        public var idleTimeout = 60.0
        /// Bounds what one `GET /__mock/events` reader is written at once: half of it for the backlog of a
        /// reconnecting reader, a thirty-second per turn after that (ten turns a second at most).
        var eventQueueLimit = 1 << 20
        /// Seconds a named session (`X-Mock-Session`) may go unused before it is dropped with its state.
        public var sessionIdleTimeout = 600.0
        /// The largest message a WebSocket client may send, and how long a socket may stay silent.
        public var webSocketLimits = WebSocketLimits()
        /// A folder where the default session's resource items are kept across restarts (created if
        /// missing); `nil` keeps them in memory only.
        public var persistDirectory: String?
        /// A wait drawn per request for every response, on top of each scenario's (`--latency`).
        package var latency: Latency?
        /// The pace of every response body whose scenario sets none (`--bandwidth`).
        package var bandwidth: Bandwidth?
        /// A condition profile laid over every request from the start (`--conditions`).
        public var conditions: ConditionProfile?
        /// Seeds the latency draws, so a run's waits can be replayed (`--seed`).
        public var seed: UInt64?
        /// Where requests no endpoint serves, and scenarios with `"proxy": true`, are passed through
        /// (`--proxy`); `nil` answers 404 for the former, and a contract with the latter does not load.
        package var upstream: (any UpstreamRelay)?
        /// With ``upstream``: also pass on requests an endpoint matches but cannot answer (no fixture for them, a
        /// method it lacks, no `when` holding), for partial mocking (`--proxy-fallback`).
        package var proxyFallback = false
        /// What `POST /__mock/verify` runs against ``upstream`` (``DriftCheck``); `nil` answers that it needs `--proxy`.
        package var driftCheck: (any DriftCheck)?

        /// A configuration with the command line's defaults but where these are given.
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

    /// The version of the server (the executable's `--version`, the dashboard's and `/__mock/health`'s).
    public static let version = "0.1.0"

    /// What the server was started with.
    public let configuration: Configuration
    /// The contracts served now (a reload replaces them).
    package var contracts: ContractSet { handler.contracts.current.contracts }
    /// The token the admin API demands (given, or made up because the server listens beyond loopback),
    /// or `nil` when loopback clients need none.
    public let adminToken: String?
    private let handler: RequestHandler
    private let http: HTTPServer

    /// Loads and validates the contracts and fixtures.
    /// - Throws: `ContractLoadError` listing every problem, including an unknown `scenario`.
    public init(configuration: Configuration) throws(ContractLoadError) {
        self.configuration = configuration
        let contracts = try ContractLoader.load(contractsDirectory: configuration.contractsDirectory,
                                                fixturesDirectory: configuration.fixturesDirectory,
                                                progress: configuration.loadProgress)
        if let scenario = configuration.scenario,
           !contracts.endpoints.contains(where: { $0.scenario(named: scenario) != nil }) {
            let known = Set(contracts.endpoints.flatMap { $0.scenarios.map(\.name) }).sorted()
            throw ContractLoadError(problems: [ContractProblem(
                file: Self.unknownScenarioFile, path: "-",
                reason: "no endpoint has a scenario \"\(scenario)\"; known: " + known.joined(separator: ", "))])
        }
        if configuration.upstream == nil {
            let passing = contracts.contracts.flatMap { contract in
                contract.endpoints.flatMap { endpoint in
                    endpoint.scenarios.filter(\.proxy).map { (contract.file, "\(endpoint.id).\($0.name)") }
                }
            }
            if !passing.isEmpty {
                throw ContractLoadError(problems: passing.map { file, name in
                    ContractProblem(file: file, path: name, reason: "passes through to the backend (\"proxy\": true), "
                        + "but the server was started without --proxy <url>")
                })
            }
        }
        let exposed = !AdminAccess.isLoopbackHost(configuration.host)
        adminToken = configuration.adminToken ?? (exposed ? Self.randomToken() : nil)
        let access = AdminAccess(allowedHosts: Self.ownAddresses(configuration.host) + configuration.allowedHosts,
                                 token: adminToken, tokenFromLoopback: configuration.adminToken != nil)
        let persistence = try configuration.persistDirectory.map { directory throws(ContractLoadError) in
            try ResourcePersistence(directory: directory)
        }
        let kept = try persistence?.load(contracts.contracts.flatMap(\.resources)) ?? [:]
        handler = RequestHandler(contracts: contracts, configuration: configuration, adminAccess: access,
                                 persistence: persistence, kept: kept)
        var core = HTTPServer.Configuration(host: configuration.host, port: configuration.port,
                                            threads: configuration.threads, io: configuration.io)
        core.settings.headerTimeout = Self.nanoseconds(configuration.headerTimeout)
        core.settings.bodyTimeout = Self.nanoseconds(configuration.bodyTimeout)
        core.settings.idleTimeout = Self.nanoseconds(configuration.idleTimeout)
        http = HTTPServer(configuration: core, responder: handler)
    }

    /// The `ContractProblem.file` of the one problem an unknown ``Configuration/scenario`` raises: it is
    /// the configuration's fault, not a contract's (the executable answers it as a usage error).
    public static let unknownScenarioFile = "--scenario"

    /// The requests received so far.
    public var journal: Journal { handler.journal }

    /// Sends one server-sent event into every open event stream of `endpointID` (a scenario with `"events"` and
    /// `"afterLast": "keepOpen"` keeps one open), or only those of `session` (its `X-Mock-Session`).
    /// - Returns: How many streams took it.
    @discardableResult
    public func send(eventData data: String, event: String? = nil, id: String? = nil, to endpointID: String,
                     session: String? = nil) -> Int {
        handler.openStreams.send(event: ServerEvent(event: event, data: data, id: id).encoded(), endpoint: endpointID,
                                 session: session)
    }

    /// Sends `message` into every open WebSocket of `endpointID` (an endpoint with `"websocket": true`), or only
    /// those of `session` (its `X-Mock-Session`, or `?session=` on the upgrade request). Each is journaled.
    /// - Returns: How many sockets took it.
    @discardableResult
    public func send(_ message: WebSocketMessage, to endpointID: String, session: String? = nil) -> Int {
        handler.openStreams.send(message, endpoint: endpointID, session: session)
    }

    /// The journal entries `query` selects, oldest first: those of one endpoint, the last few.
    /// - Throws: ``JournalQuery/Problem`` for an endpoint id no contract has (naming those that exist) or
    ///   a limit below 1, so a typo in a test fails loudly instead of matching nothing.
    public func journalEntries(_ query: JournalQuery = JournalQuery()) throws(JournalQuery.Problem) -> [JournalEntry] {
        try query.apply(to: journal.entries(), knownEndpoints: handler.contracts.current.routes.map(\.id))
    }

    /// The reply to `request` as a connection from loopback would get it, without a socket: for
    /// dispatchers that answer in-process (`ContractDispatcher`). The reply's delay and fault are the
    /// caller's to carry out.
    package func reply(to request: HTTPRequest) -> Reply {
        handler.respond(to: request, peerIsLoopback: true)
    }

    /// The bound port, once started.
    public var port: UInt16 { http.port }

    /// `host:port` as a URL writes it (an IPv6 host in brackets), with the bound port once started.
    public var address: String {
        SocketError.display(host: configuration.host, port: port == 0 ? configuration.port : port)
    }

    /// The server's base URL, e.g. `http://127.0.0.1:8080` or `http://[::1]:8080`.
    public var url: String { "http://" + address }

    /// The dashboard's address for a browser on this machine, e.g. `http://127.0.0.1:8080/__mock/`: on
    /// loopback even when the server listens on every interface. When loopback clients need the admin
    /// token (it was given), the link carries it in its fragment, `#token=…`, which a browser never sends:
    /// the page reads it from there, so it reaches neither the journal nor any log.
    public var dashboardURL: String {
        let name = AdminAccess.hostName(configuration.host) ?? configuration.host
        let host = name == "0.0.0.0" ? "127.0.0.1" : name == "::" ? "::1" : name
        let link = "http://" + SocketError.display(host: host, port: port) + Dashboard.path
        return configuration.adminToken.map { link + Self.tokenFragment($0) } ?? link
    }

    /// The dashboard's address for a device on the network at `address` (one of ``networkAddresses``), with
    /// the admin token it needs in the fragment.
    public func dashboardURL(networkAddress address: String) -> String {
        "http://" + SocketError.display(host: address, port: port) + Dashboard.path
            + (adminToken.map(Self.tokenFragment) ?? "")
    }

    /// `#token=…`, every byte but letters, digits and `-._~` percent-encoded.
    static func tokenFragment(_ token: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        var encoded = ""
        for byte in token.utf8 {
            if allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return "#token=" + encoded
    }

    /// The readiness API the running server uses.
    public var ioBackend: IOBackend { http.ioBackend }

    /// One loop per processor this process may use, at most four.
    public static var defaultThreadCount: Int { min(POSIX.availableProcessors(), 4) }

    /// Binds the socket and starts the event loops; returns once the server accepts connections.
    /// Calling it on a running server does nothing. It changes no process-wide state (signal
    /// dispositions, descriptor limits): those belong to the process that embeds the server.
    /// - Throws: ``SocketError`` when the address is invalid or in use, or the I/O backend is unavailable.
    public func start() throws(SocketError) {
        try start(beforeServing: { _ in })
    }

    /// ``start()``, calling `beforeServing` with the bound port once the socket listens and before any
    /// request is served (the executable prints its listening line there, ahead of any access-log line).
    package func start(beforeServing: (_ port: UInt16) -> Void) throws(SocketError) {
        guard !http.isRunning else { return }
        let fixtures = handler.fixtures, contracts = handler.contracts
        var watched = fixtures.startWatching().map { [WatchedDescriptor(fd: $0) { fixtures.refresh() }] } ?? []
        if let descriptor = contracts.startWatching() {
            watched.append(WatchedDescriptor(fd: descriptor) { contracts.watcherIsReadable() })
        }
        do {
            let facts = handler.facts, host = configuration.host
            try http.start(watching: watched) { port in
                facts.didStart(address: SocketError.display(host: host, port: port))
                beforeServing(port)
            }
        } catch {
            fixtures.stopWatching()
            contracts.stopWatching()
            throw error
        }
    }

    /// Stops accepting, lets in-flight responses finish (up to the shutdown grace, 5 s), closes every connection
    /// and returns when the loops have ended. Safe to call more than once.
    public func stop() {
        if http.stop() {
            handler.fixtures.stopWatching()
            handler.contracts.stopWatching()
        }
    }

    /// Makes `scenario` the active scenario of endpoint `endpointID` (as `PUT /__mock/scenarios/{id}`), for
    /// requests without `X-Mock-Session` or, given `session`, for that session's requests.
    /// - Returns: `false` when there is no such endpoint or scenario.
    @discardableResult
    public func setScenario(_ scenario: String, for endpointID: String, session: String? = nil) -> Bool {
        (try? activateScenario(scenario, for: endpointID, session: session)) != nil
    }

    /// ``setScenario(_:for:session:)``, telling why it cannot.
    /// - Throws: ``ScenarioChoiceError``, whose message names the endpoints or the endpoint's scenarios.
    public func activateScenario(_ scenario: String, for endpointID: String, session: String? = nil)
        throws(ScenarioChoiceError)
    {
        let serving = handler.contracts.current
        do {
            try handler.scenarios.set(endpointID: endpointID, scenario: scenario,
                                      session: session ?? SessionTable.defaultSession, in: serving)
        } catch .unknownEndpoint {
            throw ScenarioChoiceError(unknownEndpoint: true, message: "no endpoint has the id \"\(endpointID)\"; "
                + "endpoints: " + serving.routes.map(\.id).joined(separator: ", "))
        } catch .unknownName(let message, _) {
            throw ScenarioChoiceError(unknownEndpoint: false, message: message)
        } catch {
            throw ScenarioChoiceError(unknownEndpoint: false, message: "\(error)")
        }
    }

    /// Returns every resource's items to its seed (as `DELETE /__mock/resources`), in every session or, given
    /// `session`, in that one.
    public func resetResources(session: String? = nil) {
        handler.resourceStore.reset(resourceID: nil, session: session)
    }

    /// Returns every endpoint to its default scenario and every sequence to its first step, for requests
    /// without `X-Mock-Session` or, given `session`, for that session.
    public func resetScenarios(session: String? = nil) {
        handler.scenarios.resetScenarios(session: session ?? SessionTable.defaultSession)
    }

    /// Loads the contracts folder again (as `POST /__mock/reload`); a valid set replaces the served one
    /// at once, a broken one changes nothing.
    @discardableResult
    public func reloadContracts() -> ReloadOutcome { handler.contracts.reload() }

    private static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0.001, seconds) * 1_000_000_000) }

    /// Whether the server listens beyond this machine's loopback interface.
    public var isExposed: Bool { !AdminAccess.isLoopbackHost(configuration.host) }

    /// The addresses devices on the network can use: the bound address, or every interface's when bound
    /// to all of them (`0.0.0.0`, `::`).
    public var networkAddresses: [String] { isExposed ? Self.ownAddresses(configuration.host) : [] }

    package static func ownAddresses(_ host: String) -> [String] {
        let name = AdminAccess.hostName(host) ?? host
        return ["0.0.0.0", "::"].contains(name) ? POSIX.interfaceAddresses() : [name]
    }

    /// 32 hex digits from the system's secure random source.
    package static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }
}

/// Why a scenario cannot be made active: no such endpoint, or no such scenario of it.
public struct ScenarioChoiceError: Error, CustomStringConvertible, Equatable {
    /// Whether the endpoint is unknown; else the scenario is.
    public let unknownEndpoint: Bool
    /// What is wrong, naming the endpoints or the endpoint's scenarios that exist.
    public let message: String
    public var description: String { message }
}
