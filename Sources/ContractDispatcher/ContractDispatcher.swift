#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import HTTPCore
import MockServer
import Networking

/// A `NetworkDispatcher` that answers from `Contracts/` and `Fixtures/` in-process, as the mock server
/// would over a socket: the same routing, request validation, scenarios (sequences, states, sessions),
/// templates, resources and journal, because it is the same code. For unit tests of view models and
/// services: no port, no network, and the contracts the server and the contract suite use.
///
/// ```swift
/// let dispatcher = try ContractDispatcher(contracts: "Contracts", fixtures: "Fixtures")
/// let client = APIClient(environment: .local(), dispatcher: dispatcher)
/// dispatcher.scenario = "serverErr"                       // every endpoint that has one
/// try dispatcher.setScenario("pathErr", for: "productList") // one endpoint
/// ```
///
/// A scenario's `delayMs` is waited (cancellably); a fault throws the `URLError` URLSession reports for
/// it on Apple platforms (`FaultMapping`). Link it from test targets only: it carries the mock server.
public final class ContractDispatcher: NetworkDispatcher, @unchecked Sendable {
    // @unchecked: `defaultScenario` is only touched while holding `lock`.
    /// The server whose request handler answers; never started, so it opens no socket. Its journal
    /// records every request (`server.journalEntries()`).
    public let server: MockServer
    private let lock = NSLock()
    private var defaultScenario: String?

    /// Loads and checks the contracts and fixtures as the server does.
    /// - Parameters:
    ///   - contracts: The folder of contract files.
    ///   - fixtures: The folder their fixture paths are relative to.
    ///   - scenario: Played by every endpoint that has a scenario of this name (as `--scenario`).
    /// - Throws: `ContractLoadError` listing every problem.
    public init(contracts: String = "Contracts", fixtures: String = "Fixtures", scenario: String? = nil) throws {
        var configuration = MockServer.Configuration(port: 0, contractsDirectory: contracts, fixturesDirectory: fixtures,
                                                     scenario: scenario, logFormat: .off)
        configuration.threads = 1
        server = try MockServer(configuration: configuration)
    }

    /// The scenario requests ask for with `X-Mock-Scenario` unless they name one themselves; `nil` lets
    /// each endpoint play its default. An endpoint without a scenario of this name plays its default.
    public var scenario: String? {
        get { lock.withLock { defaultScenario } }
        set { lock.withLock { defaultScenario = newValue } }
    }

    /// Makes `endpointID` play `scenario` until reset, for requests without `X-Mock-Scenario`.
    /// - Parameters:
    ///   - scenario: The scenario's name.
    ///   - endpointID: The endpoint's `id` in its contract.
    ///   - session: The `X-Mock-Session` it applies to; `nil` for requests without one.
    /// - Throws: ``AdminError`` naming the endpoints or scenarios that exist when one is unknown.
    public func setScenario(_ scenario: String, for endpointID: String, session: String? = nil) throws {
        do {
            try server.activateScenario(scenario, for: endpointID, session: session)
        } catch {
            throw AdminError(status: error.unknownEndpoint ? 404 : 400, message: error.message)
        }
    }

    /// Every endpoint back to its default scenario, and every resource back to its seed.
    public func reset() throws {
        server.resetScenarios()
        server.resetResources()
    }

    public func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try Task.checkCancellation()
        guard let url = request.url else { throw URLError(.badURL) }
        var headers = request.allHTTPHeaderFields ?? [:]
        if let scenario, !headers.keys.contains(where: { $0.caseInsensitiveCompare(MockHeader.scenario) == .orderedSame }) {
            headers[MockHeader.scenario] = scenario
        }
        let parsed = try InProcessRequest.parse(method: request.httpMethod ?? "GET", url: url, headers: headers,
                                                body: request.httpBody ?? Data())
        let reply = server.reply(to: parsed)
        var timeout = request.timeoutInterval
        if reply.delayMs > 0 {
            // Over a socket, a client whose timeout comes before the delay ends gives up then.
            let delay = Double(reply.delayMs) / 1000
            if timeout > 0 && timeout <= delay {
                try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                throw URLError(.timedOut)
            }
            try await Task.sleep(nanoseconds: UInt64(reply.delayMs) * 1_000_000)
            if timeout > 0 { timeout -= delay }
        }
        return try await FaultMapping.outcome(of: reply, for: parsed, url: url, timeout: timeout)
    }

    /// An admin call the dispatcher makes for its caller failed.
    public struct AdminError: Error, CustomStringConvertible {
        /// The status the admin call answered with.
        public let status: Int
        /// What the server said was wrong.
        public let message: String
        public var description: String { "\(status): \(message)" }
    }
}
