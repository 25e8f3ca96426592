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

/// `ContractDispatcher` as a view model's unit test uses it: the bundled contracts, no socket.
@Suite(.timeLimit(.minutes(2)))
struct ContractDispatcherTests {
    private let dispatcher: ContractDispatcher
    private let client: APIClient

    init() throws {
        dispatcher = try ContractDispatcher(contracts: ContractCatalog.contractsDirectory, fixtures: ContractCatalog.fixturesDirectory)
        client = APIClient(environment: .local(), dispatcher: dispatcher, defaultTimeout: 30)
    }

    @Test func answersFromTheFixtures_AndTheScenarioPropertyAndOverridesPickOthers() async throws {
        #expect(await HealthService(client: client).check().value == "OK")
        #expect(await ProductService(client: client, vendorIdentifier: "v").detail(id: 3).value?.id == 3)

        dispatcher.scenario = "serverErr"
        #expect(await HealthService(client: client).check().caseName == "serverErr")
        #expect(await ProductService(client: client, vendorIdentifier: "v").detail(id: 3).caseName == "serverErr")
        dispatcher.scenario = nil

        try dispatcher.setScenario("pathErr", for: "healthCheck")
        #expect(await HealthService(client: client).check().caseName == "pathErr")
        #expect(await ProductService(client: client, vendorIdentifier: "v").detail(id: 3).caseName == "success")
        try dispatcher.reset()
        #expect(await HealthService(client: client).check().caseName == "success")
    }

    @Test func unknownEndpointOrScenario_IsAnErrorNamingWhatExists() throws {
        #expect { try dispatcher.setScenario("success", for: "nope") } throws: {
            "\($0)".contains("404") && "\($0)".contains("healthCheck")
        }
        #expect { try dispatcher.setScenario("nope", for: "healthCheck") } throws: { "\($0)".contains("flaky") }
    }

    @Test func faultsAreTheTransportErrorsASocketGives_AndTheJournalRecords() async throws {
        let reset = await HealthService(client: client).check(interceptors: [MockSession(scenario: "malformed")])
        #expect(reset.transportKind == .badResponse)
        let entries = try dispatcher.server.journalEntries(JournalQuery(endpoint: "healthCheck"))
        #expect(entries.last?.fault == .malformedResponse && entries.last?.violations == [])
    }

    @Test func aDelayIsWaited() async throws {
        let started = Date()
        let slow = await HealthService(client: client).check(interceptors: [MockSession(scenario: "slow")])
        #expect(slow.value == "OK" && Date().timeIntervalSince(started) >= 0.8, "the scenario's 800 ms delay")
    }

    /// A minute's delay, cancelled after 0.1 s: the dispatcher itself stops waiting and throws, rather than
    /// answering 200 once the minute is over. Asked of the dispatcher, not the client (whose own deadline
    /// returns at once on cancellation anyway), and judged by the outcome, not the clock: under the thread
    /// sanitizer a starved test pool once held this task 72 s.
    @Test func cancellingStopsTheDelay() async throws {
        let folder = try ScratchContracts(contracts: [("slow.json", #"""
            {"domain": "slow", "endpoints": [{"id": "slow", "method": "GET", "path": "/slow",
              "scenarios": [{"name": "success", "status": 200, "delayMs": 60000, "expect": "success"}]}]}
            """#)])
        let slow = try ContractDispatcher(contracts: folder.contracts, fixtures: folder.fixtures)
        let request = URLRequest(url: URL(string: "http://127.0.0.1/slow")!, timeoutInterval: 120)
        let task = Task { try await slow.dispatch(request) }
        try await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        let outcome = await task.result
        #expect(throws: CancellationError.self, "the minute's delay was not cut short") { try outcome.get() }
    }

    /// A delay longer than the request's timeout ends in timedOut at the timeout, as over a socket (asked of
    /// the dispatcher itself: the client's own deadline would say timedOut anyway).
    @Test func aDelayPastTheTimeout_IsTimedOut() async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1/healthChecker")!, timeoutInterval: 0.3)
        request.setValue("slow", forHTTPHeaderField: MockHeader.scenario)
        await #expect { _ = try await dispatcher.dispatch(request) } throws: { ($0 as? URLError)?.code == .timedOut }
        request.timeoutInterval = 5
        let (body, response) = try await dispatcher.dispatch(request)
        #expect(response.statusCode == 200 && String(decoding: body, as: UTF8.self).hasPrefix("OK"))
    }

    /// A percent-escape in the path reaches the router as over a socket: `%2F` stays inside its segment.
    @Test func percentEscapesInThePath_AreKept() async throws {
        let request = URLRequest(url: URL(string: "http://127.0.0.1/api/products/a%2Fb")!)
        let (_, response) = try await dispatcher.dispatch(request)
        let entry = try #require(try dispatcher.server.journalEntries().last)
        #expect(entry.target == "/api/products/a%2Fb", "\(entry.target)")
        #expect(response.statusCode == 400, "one segment that is not an integer id, not two segments (404)")
    }

    /// A dribbled body arrives whole, after the time its pieces take over a socket.
    @Test func aPacedBody_ArrivesWhole_AfterItsPace() async throws {
        let folder = try ScratchContracts(contracts: [("paced.json", #"""
            {"domain": "paced", "endpoints": [{"id": "paced", "method": "GET", "path": "/slow", "response": {"contentType": "text/plain"},
              "scenarios": [{"name": "success", "status": 200, "body": "paced.txt", "dribble": {"pieces": 4, "overMs": 300},
                             "expect": "success"}]}]}
            """#)], fixtures: [("paced.txt", "one two three four")])
        let client = APIClient(environment: .local(), dispatcher: try ContractDispatcher(contracts: folder.contracts,
                                                                                       fixtures: folder.fixtures))
        let started = Date()
        #expect(await client.send(SlowAPI.slow, decoding: .text).value == "one two three four")
        #expect(Date().timeIntervalSince(started) >= 0.3)
    }

    /// The cart's store, in memory: a create/edit/delete walk per session, and the 412 of a stale ETag.
    @Test func resourcesAreServedFromTheStore_PerSession() async throws {
        let cart = CartService(client: client) { "t" }
        let mine = MockSession()
        let added = try #require(await cart.add(productId: 4, quantity: 2, interceptors: [mine]).value)
        #expect(await cart.changeQuantity(id: added.id, quantity: 3, interceptors: [mine]).value?.quantity == 3)
        #expect(await cart.changeQuantity(id: added.id, quantity: 4, ifMatch: #""stale""#, interceptors: [mine]).status == 412)
        #expect(await cart.items(interceptors: [mine]).value?.count == 3)
        #expect(await cart.items(interceptors: [MockSession()]).value?.count == 2, "another session sees the seed")
        #expect(await cart.remove(id: added.id, interceptors: [mine]).caseName == "success")
        #expect(await cart.items(interceptors: [mine]).value?.count == 2)
    }

    @Test func badContracts_FailToLoad_NamingTheProblem() throws {
        #expect { try ContractDispatcher(contracts: "/nonexistent", fixtures: "/nonexistent") } throws: {
            "\($0)".contains("/nonexistent")
        }
    }
}

private enum SlowAPI: Endpoint {
    case slow
    var path: String { "/slow" }
    var method: HTTPMethod { .get }
}

private extension NetworkResult {
    var transportKind: TransportError.Kind? {
        if case .networkFail(let error) = self { error.kind } else { nil }
    }

    var status: Int? {
        switch self {
        case .requestErr(let status, _), .serverErr(let status): status
        case .pathErr(let failure): failure.status
        case .success, .networkFail: nil
        }
    }
}
