@testable import ContractModel
@testable import HTTPCore
@testable import MockServer
import Testing

/// The session store on its own, with a clock the test moves.
struct ScenarioStoreTests {
    private final class Clock: Sendable {
        private let nanoseconds = Locked<UInt64>(1_000_000_000)
        var now: UInt64 { nanoseconds.withValue { $0 } }
        func advance(seconds: Double) { nanoseconds.withValue { $0 += UInt64(seconds * 1e9) } }
    }

    private func serving() throws -> ServingSet {
        let contracts = try ContractLoader.load(contractsDirectory: Repository.contracts,
                                                fixturesDirectory: Repository.fixtures)
        return ServingSet(contracts: contracts, serverScenario: nil)
    }

    @Test func namedSession_IsDroppedAfterItsIdleTimeout_AndStartsAfresh() throws {
        let clock = Clock()
        let store = ScenarioStore(idleSeconds: 600, clock: { clock.now })
        let serving = try serving()
        try store.set(endpointID: "healthCheck", scenario: "serverErr", session: "a", in: serving)
        clock.advance(seconds: 599)
        #expect(store.sessions().map(\.id) == ["a"])
        #expect(store.sessions().first?.idleSeconds == 599)
        clock.advance(seconds: 2)
        #expect(store.sessions().isEmpty, "idle for 601 s")
        let route = try #require(serving.routesByID["healthCheck"])
        let selection = store.select(route, requested: nil, session: "a", advancing: true)
        #expect(selection.chosen.name == "success", "an expired session does not come back with its state")
        #expect(!store.deleteSession("a"))
    }

    @Test func defaultSession_NeverExpires() throws {
        let clock = Clock()
        let store = ScenarioStore(idleSeconds: 1, clock: { clock.now })
        let serving = try serving()
        try store.set(endpointID: "healthCheck", scenario: "serverErr", session: ScenarioStore.defaultSession, in: serving)
        clock.advance(seconds: 3_600)
        let route = try #require(serving.routesByID["healthCheck"])
        #expect(store.select(route, requested: nil, session: "", advancing: true).chosen.name == "serverErr")
    }

    @Test func manySessions_EvictTheLeastRecentlyUsed_InBatches() throws {
        let clock = Clock()
        let store = ScenarioStore(idleSeconds: 600, clock: { clock.now })
        let serving = try serving()
        for index in 0..<ScenarioStore.maximumSessions {
            try store.set(endpointID: "healthCheck", scenario: "serverErr", session: "s\(index)", in: serving)
            clock.advance(seconds: 0.001)
        }
        #expect(store.sessions().count == ScenarioStore.maximumSessions)
        try store.set(endpointID: "healthCheck", scenario: "serverErr", session: "new", in: serving)
        let ids = Set(store.sessions().map(\.id))
        #expect(ids.contains("new") && !ids.contains("s0") && ids.contains("s\(ScenarioStore.maximumSessions - 1)"))
        #expect(ids.count == ScenarioStore.maximumSessions - ScenarioStore.maximumSessions / 10 + 1)
    }

    @Test func infiniteIdleTimeout_IsClamped_NotATrap() {
        #expect(ScenarioStore(idleSeconds: .infinity).idleTimeout == 1_000_000_000 * 1_000_000_000)
    }
}
