#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import MockServer
import Networking
import Testing
import TodoApp

/// The app's service against an embedded mock server: real sockets, real URLSession, the app's own
/// contract. Each test picks its scenario with a header on its own client, so tests run in parallel
/// without trampling each other (a server-wide `setScenario` would race).
@Suite struct TodoServiceTests {
    /// One server for the suite, on a free port, serving this package's Contracts/ and Fixtures/.
    static let server: MockServer = {
        let root = URL(fileURLWithPath: #filePath)          // <package>/Tests/TodoAppTests/this file
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let configuration = MockServer.Configuration(
            port: 0,
            contractsDirectory: root.appendingPathComponent("Contracts").path,
            fixturesDirectory: root.appendingPathComponent("Fixtures").path)
        // A broken contract fails here with every problem listed (file, JSON path, reason).
        let server = try! MockServer(configuration: configuration)
        try! server.start()  // returns once the server accepts connections
        return server
    }()

    /// A service whose every request plays `scenario`, traced so the test finds its own journal entries.
    private func service(scenario: String, trace: String) -> TodoService {
        let client = APIClient(environment: .local(port: Int(Self.server.port)),
                               interceptors: [HeaderInterceptor([MockHeader.scenario: scenario, "X-Trace": trace])])
        return TodoService(client: client)
    }

    @Test func list_DecodesTheItems() async {
        let result = await service(scenario: "success", trace: UUID().uuidString).list()
        guard case .success(let todos) = result else { Issue.record("got \(result)"); return }
        #expect(todos.map(\.title) == ["Buy milk", "Write tests"])
    }

    @Test func list_WhenTheServerIsDown_IsServerErr() async {
        let result = await service(scenario: "serverErr", trace: UUID().uuidString).list()
        guard case .serverErr(let status) = result else { Issue.record("got \(result)"); return }
        #expect(status == 503)
    }

    @Test func add_SendsTheTitle_AndTheJournalShowsIt() async throws {
        let trace = UUID().uuidString
        let result = await service(scenario: "success", trace: trace).add("Ship it")
        guard case .success(let todo) = result else { Issue.record("got \(result)"); return }
        #expect(todo.id == 3)
        let entries = try Self.server.journalEntries(JournalQuery(endpoint: "todoAdd"))
        let mine = try #require(entries.first { $0.header("X-Trace") == trace })
        #expect(mine.bodyText == #"{"title":"Ship it"}"#)
        #expect(mine.violations.isEmpty)
    }

    @Test func add_WhenTheConnectionDrops_IsNetworkFail() async {
        let result = await service(scenario: "offline", trace: UUID().uuidString).add("Ship it")
        guard case .networkFail(let error) = result else { Issue.record("got \(result)"); return }
        #expect(error.kind == .connectionLost)
    }
}
