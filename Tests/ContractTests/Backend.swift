import MockServer
import TestSupport

extension MockServer {
    /// This package's server on a free loopback port, one event loop, serving `folders`: a test's own contract,
    /// or a backend for the recorder and the proxy to relay to. Stop it when done.
    static func backend(serving folders: ScratchContracts) throws -> MockServer {
        _ = TestProcess.descriptorLimit
        var configuration = MockServer.Configuration(port: 0, contractsDirectory: folders.contracts,
                                                     fixturesDirectory: folders.fixtures)
        configuration.threads = 1
        let server = try MockServer(configuration: configuration)
        try server.start()
        return server
    }
}
