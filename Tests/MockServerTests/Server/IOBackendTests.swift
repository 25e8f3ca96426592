import Foundation
@testable import HTTPCore
@testable import MockServer
import Testing
import TestSupport

/// The same conversations on every readiness backend this platform has (epoll and poll on Linux,
/// kqueue and poll on Darwin), over real sockets.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct IOBackendTests {
    @Test(arguments: IOBackend.available)
    func backend_ServesKeepAliveAndPipelinedRequests(io: HTTPCore.IOBackend) async throws {
        try await withServer(configure: { $0.io = io; $0.threads = 2 }) { server in
            #expect(server.ioBackend == io)
            let client = try RawClient(port: server.port)
            #expect(try client.get("/healthChecker").status == 200)
            client.send("GET /api/products/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            #expect(try client.readResponse().text == "OK")
        }
    }

    /// kqueue and Darwin's poll(2) report no hang-up for a descriptor nobody reads, so a paused
    /// connection stays readable: a client that gives up during `no_response` (held 3 s) or a delay
    /// (800 ms) is closed then, not when the pause ends.
    @Test(arguments: IOBackend.available, ["hang", "slow"])
    func backend_NoticesClientGivingUp_DuringAPause(io: HTTPCore.IOBackend, scenario: String) async throws {
        try await withServer(configure: { $0.io = io }) { server in
            let client = try RawClient(port: server.port, timeout: 10)
            let sent = ContinuousClock.now
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: \(scenario)\r\n\r\n")
            try await waitUntil { server.journal.entries().contains { $0.scenario == scenario } }
            let gaveUp = ContinuousClock.now
            client.finishSending()
            let (bytes, end) = client.readToEnd()
            let closed = ContinuousClock.now
            #expect(end == .closed)
            // What tells the two closes apart is the pause: a close from the client giving up comes before
            // it ends. On a machine too busy to give up within half the pause, nothing can be told apart.
            let pause: Duration = scenario == "hang" ? .seconds(3) : .milliseconds(800)
            if gaveUp - sent < pause / 2 {
                #expect(closed - sent < pause, "closed when the client gave up, not when the pause ended")
                #expect(bytes.isEmpty, "no reply goes to a client that gave up")
            }
        }
    }

    @Test(arguments: IOBackend.available)
    func backend_PipelinedBytesArrivingDuringADelay_AreAnsweredAfterIt(io: HTTPCore.IOBackend) async throws {
        try await withServer(configure: { $0.io = io }) { server in
            let client = try RawClient(port: server.port)
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: slow\r\n\r\n")
            try await waitUntil { server.journal.entries().contains { $0.scenario == "slow" } }
            client.send("GET /api/products/2 HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try client.readResponse().text == "OK")
            #expect(try client.readResponse().status == 200)
        }
    }

    @Test func names_AndAvailability() throws {
        #expect(IOBackend(name: "poll") == .poll)
        #expect(IOBackend(name: "select") == nil)
        #expect(IOBackend.poll.isAvailable)
        #expect(IOBackend.available.contains(.platformDefault))
        #if os(Linux)
        #expect(IOBackend.platformDefault == .epoll && !IOBackend.kqueue.isAvailable)
        #elseif canImport(Darwin)
        #expect(IOBackend.platformDefault == .kqueue && !IOBackend.epoll.isAvailable)
        #endif
    }

    @Test func environmentVariable_ChoosesBackend_AndRejectsUnknownNames() throws {
        #expect(try IOBackend.fromEnvironment(nil) == .platformDefault)
        #expect(try IOBackend.fromEnvironment("") == .platformDefault)
        #expect(try IOBackend.fromEnvironment("poll") == .poll)
        #expect(throws: SocketError.unavailableBackend("MOCK_SERVER_IO=select")) {
            try IOBackend.fromEnvironment("select")
        }
    }

    @Test func unavailableBackend_FailsStart_WithTheAvailableOnes() throws {
        var configuration = MockServer.Configuration(port: 0, contractsDirectory: Repository.contracts,
                                                     fixturesDirectory: Repository.fixtures)
        configuration.io = IOBackend.platformDefault == .epoll ? .kqueue : .epoll
        let server = try MockServer(configuration: configuration)
        let error = try #require(throws: SocketError.self) { try server.start() }
        #expect(error.description.contains("not available on this platform; available: "))
        #expect(server.port == 0)
    }
}
