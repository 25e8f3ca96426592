#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ContractDispatcher
import Foundation
import HTTPCore
import MockServer
import Networking

/// The mock server the suite runs against: in-process, on a free port, started once.
enum LiveServer {
    static let shared: Result<MockServer, any Error> = Result {
        _ = descriptorLimit
        var configuration = MockServer.Configuration(port: 0, contractsDirectory: ContractCatalog.contractsDirectory,
                                                     fixturesDirectory: ContractCatalog.fixturesDirectory)
        configuration.threads = 2
        let server = try MockServer(configuration: configuration)
        try server.start()
        return server
    }

    /// The same contracts answered in-process, without a socket.
    static let inProcess: Result<ContractDispatcher, any Error> = Result {
        try ContractDispatcher(contracts: ContractCatalog.contractsDirectory, fixtures: ContractCatalog.fixturesDirectory)
    }

    /// Like any process that embeds the server, the test runner sets its own descriptor limit: macOS
    /// starts processes at 256, fewer than this suite's parallel sessions need.
    static let descriptorLimit = POSIX.raiseDescriptorLimit()

    static let traceHeader = "X-Contract-Trace"

    /// A client on its own ephemeral session (no shared cookies or pooled connections between cases).
    /// - Parameters:
    ///   - timeout: Whole seconds; FoundationNetworking truncates fractions.
    ///   - session: The mock session (and scenario) every request names; a new one by default.
    static func client(port: UInt16, headers: [String: String] = [:], session: MockSession = MockSession(),
                       timeout: TimeInterval = 30) -> (APIClient, URLSession) {
        _ = descriptorLimit
        let urlSession = URLSession(configuration: .ephemeral)
        let client = APIClient(environment: .local(port: Int(port)), dispatcher: URLSessionDispatcher(session: urlSession),
                               interceptors: [HeaderInterceptor(headers), session], defaultTimeout: timeout)
        return (client, urlSession)
    }

    /// The journal entry of the request that carried `trace`.
    static func entry(in server: MockServer, trace: String) -> JournalEntry? {
        server.journal.entries().last { $0.header(traceHeader) == trace }
    }
}
