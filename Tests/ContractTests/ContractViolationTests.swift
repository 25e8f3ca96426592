#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Endpoints
import Foundation
import MockServer
import Networking
import Testing
import TestSupport

/// Requests built to break their contract come back as requestErr, and the journal names the violation.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ContractViolationTests {
    /// An endpoint declared by hand, to send what the typed calls never would.
    struct RawEndpoint: Endpoint {
        var path: String
        var method: HTTPMethod = .get
        var headers: [String: String] = [:]
        var body: any RequestBody = PlainBody()
    }

    private func send(_ endpoint: RawEndpoint, scenario: String? = nil) async throws
        -> (NetworkResult<Void>, JournalEntry?)
    {
        let server = try LiveServer.shared.get()
        let trace = UUID().uuidString
        var headers = [LiveServer.traceHeader: trace]
        headers[RequestHandlerHeaders.scenario] = scenario
        let (client, session) = LiveServer.client(port: server.port, headers: headers)
        defer { session.finishTasksAndInvalidate() }
        let result = await client.send(endpoint)
        return (result, LiveServer.entry(in: server, trace: trace))
    }

    private func expectRequestErr(
        _ result: NetworkResult<Void>,
        status: Int,
        messageContains text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .requestErr(let got, let message) = result else {
            Issue.record("expected requestErr, got \(result.caseName)", sourceLocation: sourceLocation)
            return
        }
        #expect(got == status, sourceLocation: sourceLocation)
        #expect(message.contains(text), "\(message)", sourceLocation: sourceLocation)
    }

    @Test func missingQueryParameter_IsRequestErr_AndJournaled() async throws {
        let (result, entry) = try await send(RawEndpoint(path: "/api/products", body: .query(["page_no": "1"])))
        expectRequestErr(result, status: 400, messageContains: "query parameter items_per_page is missing")
        #expect(entry?.violations == ["query parameter items_per_page is missing"])
        #expect(entry?.endpoint == "productList")
    }

    @Test func missingBearerToken_IsRequestErr401() async throws {
        let (result, entry) = try await send(RawEndpoint(path: "/api/v1/question/today"))
        expectRequestErr(result, status: 401, messageContains: "bearer token")
        #expect(entry?.violations.first?.contains("Authorization") == true)
    }

    @Test func wrongBody_IsRequestErr_EvenWhenTheScenarioIsAFault() async throws {
        let endpoint = RawEndpoint(path: "/api/v1/question", method: .put,
                                   headers: ["Authorization": "Bearer t"], body: .json(["index": "three"]))
        let (result, entry) = try await send(endpoint, scenario: "hang")
        expectRequestErr(result, status: 400, messageContains: "body field index: string is not an integer")
        #expect(entry?.violations.contains("body field myAnswer is missing") == true)
    }

    @Test func formInsteadOfMultipart_IsRequestErr() async throws {
        let endpoint = RawEndpoint(path: "/api/products", method: .post, headers: ["identifier": "v"],
                                   body: .form(["params": "{}"]))
        let (result, _) = try await send(endpoint)
        expectRequestErr(result, status: 400, messageContains: "expected multipart/form-data")
    }

    @Test func unknownScenario_IsRequestErr_ListingValidNames() async throws {
        let (result, entry) = try await send(RawEndpoint(path: "/healthChecker"), scenario: "teapot")
        expectRequestErr(result, status: 400, messageContains: "valid: success, requestErr")
        #expect(entry?.violations.first?.contains("unknown scenario \"teapot\"") == true)
    }

    @Test func closedPort_IsNetworkFail_CannotConnect() async throws {
        // A port bound and never listening refuses every connection, and stays ours for the whole test.
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let (client, session) = LiveServer.client(port: refusing.port, headers: [:])
        defer { session.finishTasksAndInvalidate() }
        let result = await HealthService(client: client).check()
        guard case .networkFail(let error) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(error.kind == .cannotConnect)
    }

    @Test func cancellingACall_IsNetworkFail_Cancelled() async throws {
        // Its own server, whose hold outlasts any scheduling delay on a loaded machine: with the bundled
        // 3 s hold, a cancel that came late raced the server's close and read as connectionLost.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cancel-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let contracts = folder.appendingPathComponent("Contracts"), fixtures = folder.appendingPathComponent("Fixtures")
        try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try Data(#"""
            { "domain": "health", "endpoints": [ { "id": "healthCheck", "method": "GET", "path": "/healthChecker",
              "scenarios": [ { "name": "hang", "fault": "no_response", "holdMs": 120000, "expect": "networkFail" } ] } ] }
            """#.utf8).write(to: contracts.appendingPathComponent("health.json"))
        var configuration = MockServer.Configuration(port: 0, contractsDirectory: contracts.path,
                                                     fixturesDirectory: fixtures.path)
        configuration.threads = 1
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let (client, session) = LiveServer.client(port: server.port, headers: [:], timeout: 200)
        defer { session.finishTasksAndInvalidate() }
        let task = Task { await HealthService(client: client).check() }
        // Cancel once the server holds the request, without sleeping blindly or spinning for ever. The bound
        // is generous: on a loaded cooperative pool the call itself may start seconds late.
        try await waitUntil(seconds: 60) { !server.journal.entries().isEmpty }
        task.cancel()
        let result = await task.value
        guard case .networkFail(let error) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(error.kind == .cancelled)
    }
}
