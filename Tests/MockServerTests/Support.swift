#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MockServer
import TestSupport
import Testing

/// The repository's root, found from this file's path.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let contracts = root + "/Contracts"
    static let fixtures = root + "/Fixtures"
}

/// Starts a server on a free port with the bundled contracts (or given folders) and stops it when done.
func withServer<T>(
    contracts: String = Repository.contracts,
    fixtures: String = Repository.fixtures,
    configure: (inout MockServer.Configuration) -> Void = { _ in },
    _ body: (MockServer) async throws -> T
) async throws -> T {
    _ = TestProcess.descriptorLimit
    var configuration = MockServer.Configuration(port: 0, contractsDirectory: contracts, fixturesDirectory: fixtures)
    // One loop is enough for a test and keeps the suite within macOS's default 256 descriptors.
    configuration.threads = 1
    configure(&configuration)
    let server = try MockServer(configuration: configuration)
    try server.start()
    defer { server.stop() }
    return try await body(server)
}
