@testable import ContractModel
@testable import HTTPCore
@testable import MockServer
import Testing

/// The session table on its own, with a clock the test moves, and the three stores that keep their state in it.
struct SessionTableTests {
    private final class Clock: Sendable {
        private let nanoseconds = Locked<UInt64>(1_000_000_000)
        var now: UInt64 { nanoseconds.withValue { $0 } }
        func advance(seconds: Double) { nanoseconds.withValue { $0 += UInt64(seconds * 1e9) } }
    }

    /// A table, the three stores on it, and the bundled contracts.
    private struct Fixture {
        let clock = Clock()
        let table: SessionTable
        let scenarios: ScenarioStore
        let resources: ResourceStore
        let limiter: RateLimiter
        let serving: ServingSet
        let cart: Resource

        init(idleSeconds: Double = 600) throws {
            let clock = clock
            table = SessionTable(idleSeconds: idleSeconds, clock: { clock.now })
            scenarios = ScenarioStore(sessions: table)
            limiter = RateLimiter(sessions: table)
            let contracts = try ContractLoader.load(contractsDirectory: Repository.contracts,
                                                    fixturesDirectory: Repository.fixtures)
            resources = ResourceStore(seeds: contracts.seeds, sessions: table)
            serving = ServingSet(contracts: contracts, serverScenario: nil)
            cart = try #require(contracts.contracts.flatMap(\.resources).first { $0.id == "cartItems" })
        }

        func addItem(session: String) throws {
            try resources.withCollection(cart, session: session) { $0.items.append(.object(["id": .number(9)])) }
        }
    }

    private static let perSession = RateLimit(limit: 1, windowSeconds: 60, scope: .session, retryAfter: .seconds)

    @Test func session_Exists_OnceAnythingInItChanged() throws {
        let fixture = try Fixture()
        try fixture.scenarios.set(endpointID: "healthCheck", scenario: "serverErr", session: "override", in: fixture.serving)
        try fixture.scenarios.setState(domain: "questions", to: "answered", session: "state", in: fixture.serving)
        let flaky = try #require(fixture.serving.routesByID["healthCheck"]?.play(named: "flaky"))
        _ = try? fixture.scenarios.select(try #require(fixture.serving.routesByID["healthCheck"]), requested: flaky,
                                     session: "sequence", advancing: true)
        try fixture.addItem(session: "resource")
        _ = fixture.limiter.admit(Self.perSession, endpoint: "healthCheck", session: "window")
        #expect(fixture.table.list().map(\.id) == ["override", "resource", "sequence", "state", "window"])
    }

    @Test func session_LeavesNoTrace_WhenItsRequestsChangeNothing() throws {
        let fixture = try Fixture()
        let route = try #require(fixture.serving.routesByID["healthCheck"])
        _ = try? fixture.scenarios.select(route, requested: nil, session: "reader", advancing: true)
        #expect(fixture.resources.items(of: fixture.cart, session: "reader").count == 2)
        try fixture.scenarios.reset(endpointID: "healthCheck", session: "reader", in: fixture.serving)
        #expect(fixture.table.list().isEmpty)
    }

    @Test func droppingASession_DropsEveryPartOfIt() throws {
        let fixture = try Fixture()
        try fixture.scenarios.set(endpointID: "healthCheck", scenario: "serverErr", session: "a", in: fixture.serving)
        try fixture.addItem(session: "a")
        #expect(fixture.limiter.admit(Self.perSession, endpoint: "e", session: "a").allowed)
        #expect(!fixture.limiter.admit(Self.perSession, endpoint: "e", session: "a").allowed, "the second in the window")

        #expect(fixture.table.drop("a"))

        #expect(fixture.resources.items(of: fixture.cart, session: "a").count == 2, "the seed again")
        let route = try #require(fixture.serving.routesByID["healthCheck"])
        #expect((try? fixture.scenarios.select(route, requested: nil, session: "a", advancing: false))?.chosen.name == "success")
        #expect(fixture.limiter.admit(Self.perSession, endpoint: "e", session: "a").allowed, "a new window")
        #expect(!fixture.table.drop("b"))
    }

    @Test func droppingEverySession_DropsTheirItems_AndResetsTheDefaultScenarios() throws {
        let fixture = try Fixture()
        try fixture.addItem(session: "a")
        try fixture.scenarios.set(endpointID: "healthCheck", scenario: "serverErr", session: "", in: fixture.serving)
        fixture.table.dropAll { $0.scenarios = SessionState() }
        #expect(fixture.table.list().isEmpty)
        #expect(fixture.resources.items(of: fixture.cart, session: "a").count == 2)
        let route = try #require(fixture.serving.routesByID["healthCheck"])
        #expect((try? fixture.scenarios.select(route, requested: nil, session: "", advancing: false))?.chosen.name == "success")
    }

    @Test func namedSession_IsDroppedAfterItsIdleTimeout_AndStartsAfresh() throws {
        let fixture = try Fixture(idleSeconds: 600)
        try fixture.scenarios.set(endpointID: "healthCheck", scenario: "serverErr", session: "a", in: fixture.serving)
        try fixture.addItem(session: "a")
        fixture.clock.advance(seconds: 599)
        #expect(fixture.table.list().map(\.id) == ["a"])
        #expect(fixture.table.list().first?.idleSeconds == 599)
        fixture.clock.advance(seconds: 2)
        #expect(fixture.table.list().isEmpty, "idle for 601 s")
        let route = try #require(fixture.serving.routesByID["healthCheck"])
        let selection = try? fixture.scenarios.select(route, requested: nil, session: "a", advancing: true)
        #expect(selection?.chosen.name == "success", "an expired session does not come back with its state")
        #expect(fixture.resources.items(of: fixture.cart, session: "a").count == 2, "nor with its items")
        #expect(!fixture.table.drop("a"))
    }

    @Test func defaultSession_NeverExpires_AndIsNotListed() throws {
        let fixture = try Fixture(idleSeconds: 1)
        try fixture.scenarios.set(endpointID: "healthCheck", scenario: "serverErr", session: SessionTable.defaultSession,
                                  in: fixture.serving)
        try fixture.addItem(session: SessionTable.defaultSession)
        fixture.clock.advance(seconds: 3_600)
        let route = try #require(fixture.serving.routesByID["healthCheck"])
        #expect((try? fixture.scenarios.select(route, requested: nil, session: "", advancing: true))?.chosen.name == "serverErr")
        #expect(fixture.resources.items(of: fixture.cart, session: "").count == 3)
        #expect(fixture.table.list().isEmpty)
    }

    @Test func manySessions_EvictTheLeastRecentlyUsedTenth_WhateverChangedThem() throws {
        let fixture = try Fixture()
        for index in 0..<SessionTable.maximumSessions {
            if index.isMultiple(of: 2) {
                try fixture.scenarios.set(endpointID: "healthCheck", scenario: "serverErr", session: "s\(index)",
                                          in: fixture.serving)
            } else {
                try fixture.addItem(session: "s\(index)")
            }
            fixture.clock.advance(seconds: 0.001)
        }
        #expect(fixture.table.list().count == SessionTable.maximumSessions)
        _ = fixture.limiter.admit(Self.perSession, endpoint: "e", session: "new")
        let ids = Set(fixture.table.list().map(\.id))
        #expect(ids.contains("new") && !ids.contains("s0") && !ids.contains("s1"))
        #expect(ids.contains("s\(SessionTable.maximumSessions - 1)"))
        #expect(ids.count == SessionTable.maximumSessions - SessionTable.maximumSessions / 10 + 1)
    }

    /// Many threads changing one session at once lose nothing: each reads the clock under the table's lock, so none
    /// sees a `lastUsed` later than its own now and takes the session for expired.
    @Test func concurrentChanges_ToOneSession_AreAllKept() async throws {
        let table = SessionTable(idleSeconds: 600)
        let contracts = try ContractLoader.load(contractsDirectory: Repository.contracts, fixturesDirectory: Repository.fixtures)
        let resources = ResourceStore(seeds: contracts.seeds, sessions: table)
        let cart = try #require(contracts.contracts.flatMap(\.resources).first { $0.id == "cartItems" })
        let threads = 4, each = 5_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    for _ in 0..<each {
                        _ = try? resources.withCollection(cart, session: "shared") { $0.items.append(.null) }
                    }
                }
            }
        }
        #expect(resources.items(of: cart, session: "shared").count == 2 + threads * each)
    }

    @Test func infiniteIdleTimeout_IsClamped_NotATrap() {
        #expect(SessionTable(idleSeconds: .infinity).idleTimeout == 1_000_000_000 * 1_000_000_000)
    }
}
