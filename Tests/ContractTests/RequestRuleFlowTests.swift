#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ContractDispatcher
import Endpoints
import Foundation
import MockServer
import Networking
import Testing
import TestSupport

/// The bundled contracts' `when` rules through the typed services: the same answers over loopback TCP from the
/// live server and in-process from `ContractDispatcher`, because both select with the server's own code.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct RequestRuleFlowTests {
    /// A client of each kind, each with a session of its own.
    private static func clients() throws -> [(name: String, client: APIClient)] {
        let server = try LiveServer.shared.get()
        let (live, _) = LiveServer.client(port: server.port)
        let inProcess = APIClient(environment: .local(), dispatcher: try LiveServer.inProcess.get(),
                                  interceptors: [MockSession()], defaultTimeout: 30)
        return [("TCP", live), ("ContractDispatcher", inProcess)]
    }

    @Test func productList_FollowsTheCategoryAskedFor() async throws {
        for (name, client) in try Self.clients() {
            let products = ProductService(client: client, vendorIdentifier: "v")
            let food = await products.list(page: 1, itemsPerPage: 20, category: "food")
            #expect(food.value?.pages.map(\.id) == [1, 6, 8, 10], "\(name): \(food)")
            let gadgets = await products.list(page: 1, itemsPerPage: 20, category: "gadgets")
            #expect(gadgets.value?.pages.map(\.id) == [2, 7, 11], "\(name) (oneOf): \(gadgets)")
            let toys = await products.list(page: 1, itemsPerPage: 20, category: "toys")
            #expect(toys.value?.pages.isEmpty == true, "\(name) (present): \(toys)")
            let all = await products.list(page: 1, itemsPerPage: 20)
            #expect(all.value.map { $0.pages.count > 4 } == true, "\(name) (no category: the default): \(all)")
        }
    }

    @Test func answer_OfNothingButSpaces_IsRefused_AndAnAnswerIsTaken() async throws {
        for (name, client) in try Self.clients() {
            let questions = QuestionService(client: client) { "contract-test-token" }
            let blank = await questions.answer(index: 3, myAnswer: "   ")
            guard case .requestErr(400, let message) = blank else {
                Issue.record("\(name): \(blank)")
                continue
            }
            #expect(message.contains("empty answer"), "\(name): \(message)")
            #expect(await questions.answer(index: 3, myAnswer: "Seoul").caseName == "success", "\(name)")
        }
    }
}
