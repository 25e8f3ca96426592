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

    /// A contract whose scenarios each use one matcher kind, on every source.
    static let pickContract = #"""
    {
      "domain": "picks",
      "endpoints": [
        { "id": "pick", "method": "POST", "path": "/pick/{slot}",
          "scenarios": [
            { "name": "none", "status": 200, "body": "picks/none.json", "expect": "success" },
            { "name": "equals", "status": 200, "body": "picks/equals.json", "expect": "success",
              "when": { "query": { "tone": "warm" } } },
            { "name": "oneOf", "status": 200, "body": "picks/oneOf.json", "expect": "success",
              "when": { "query": { "size": { "oneOf": ["s", "m"] } } } },
            { "name": "prefix", "status": 200, "body": "picks/prefix.json", "expect": "success",
              "when": { "pathParams": { "slot": { "prefix": "vip-" } } } },
            { "name": "contains", "status": 200, "body": "picks/contains.json", "expect": "success",
              "when": { "headers": { "X-Note": { "contains": "rush" } } } },
            { "name": "regex", "status": 200, "body": "picks/regex.json", "expect": "success",
              "when": { "cookies": { "id": { "regex": "[0-9]{3}" } } } },
            { "name": "present", "status": 200, "body": "picks/present.json", "expect": "success",
              "when": { "query": { "debug": { "present": true } } } },
            { "name": "not", "status": 200, "body": "picks/not.json", "expect": "success",
              "when": { "body": { "/tier": { "not": { "oneOf": ["basic", "free"] } }, "/tier-given": { "equals": true } } } },
            { "name": "bodyEquals", "status": 200, "body": "picks/bodyEquals.json", "expect": "success",
              "when": [ { "body": { "/order/count": { "equals": 3 } } }, { "query": { "count": "3" } } ] }
          ] }
      ]
    }
    """#

    struct Picked: Decodable, Sendable { let picked: String }

    struct Pick: Endpoint {
        var path: String
        var method: HTTPMethod = .post
        var headers: [String: String] = [:]
        var body: any RequestBody
    }

    private struct Order: Encodable, Sendable {
        var tier: String?
        var tierGiven: Bool?
        var order: [String: Int]?

        enum CodingKeys: String, CodingKey { case tier, tierGiven = "tier-given", order }
    }

    @Test func everyMatcherKind_PicksItsScenario_OverTCPAndInProcess() async throws {
        let names = ["none", "equals", "oneOf", "prefix", "contains", "regex", "present", "not", "bodyEquals"]
        let scratch = try ScratchContracts(contracts: [("picks.json", Self.pickContract)],
                                           fixtures: names.map { ("picks/\($0).json", #"{"picked": "\#($0)"}"#) })
        let server = try MockServer.backend(serving: scratch)
        defer { server.stop() }
        let tcp = APIClient(environment: .local(port: Int(server.port)),
                            dispatcher: URLSessionDispatcher(session: URLSession(configuration: .ephemeral)),
                            defaultTimeout: 30)
        let inProcess = APIClient(environment: .local(),
                                  dispatcher: try ContractDispatcher(contracts: scratch.contracts, fixtures: scratch.fixtures),
                                  defaultTimeout: 30)
        let plain = Order()
        let cases: [(Pick, String)] = [
            (Pick(path: "/pick/a", body: .json(plain)), "none"),
            (Pick(path: "/pick/a?tone=warm", body: .json(plain)), "equals"),
            (Pick(path: "/pick/a?size=m", body: .json(plain)), "oneOf"),
            (Pick(path: "/pick/vip-7", body: .json(plain)), "prefix"),
            (Pick(path: "/pick/a", headers: ["X-Note": "a rush order"], body: .json(plain)), "contains"),
            (Pick(path: "/pick/a", headers: ["Cookie": "theme=dark; id=123"], body: .json(plain)), "regex"),
            (Pick(path: "/pick/a?debug", body: .json(plain)), "present"),
            (Pick(path: "/pick/a", body: .json(Order(tier: "gold", tierGiven: true))), "not"),
            (Pick(path: "/pick/a", body: .json(Order(tier: "free", tierGiven: true))), "none"),
            (Pick(path: "/pick/a", body: .json(Order(order: ["count": 3]))), "bodyEquals"),
            (Pick(path: "/pick/a?count=3", body: .json(plain)), "bodyEquals"),
        ]
        for (name, client) in [("TCP", tcp), ("ContractDispatcher", inProcess)] {
            for (call, expected) in cases {
                let result = await client.send(call, decoding: .json(Picked.self))
                #expect(result.value?.picked == expected, "\(name) \(call.path) \(call.headers): \(result)")
            }
        }
    }
}
