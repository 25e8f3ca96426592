import ContractDispatcher
import Foundation
import Networking
import Testing
import TodoApp

/// The app's service answered from its own contract in-process: no server, no socket, no port.
@Suite struct TodoOfflineTests {
    private let dispatcher: ContractDispatcher
    private let service: TodoService

    init() throws {
        let root = URL(fileURLWithPath: #filePath)          // <package>/Tests/TodoAppTests/this file
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        dispatcher = try ContractDispatcher(contracts: root.appendingPathComponent("Contracts").path,
                                            fixtures: root.appendingPathComponent("Fixtures").path)
        service = TodoService(client: APIClient(environment: .local(), dispatcher: dispatcher))
    }

    @Test func list_FromTheContractsDefaultScenario() async {
        let result = await service.list()
        guard case .success(let todos) = result else { Issue.record("got \(result)"); return }
        #expect(todos.map(\.title) == ["Buy milk", "Write tests"])
    }

    @Test func list_WhenAScenarioIsPicked_FollowsIt() async throws {
        try dispatcher.setScenario("serverErr", for: "todoList")
        guard case .serverErr(503) = await service.list() else { Issue.record("not serverErr(503)"); return }
        dispatcher.scenario = "offline"
        guard case .networkFail = await service.add("Ship it") else { Issue.record("not networkFail"); return }
    }
}
