@testable import ContractModel
@testable import HTTPCore
@testable import MockServer
import Testing

/// An event loop's memo of what a method and target decide, without a socket: a verdict is found again only for the
/// same method and target and the same contract set.
struct TargetMemoTests {
    private func serving() throws -> ServingSet {
        let contracts = try ContractLoader.load(contractsDirectory: Repository.contracts,
                                                fixturesDirectory: Repository.fixtures)
        return ServingSet(contracts: contracts, serverScenario: nil)
    }

    /// Calls `body` with the key of `text`, a method, a space and a target (the target starting after the first
    /// space unless `targetStart` says otherwise).
    private func withKey<T>(_ text: String, targetStart: Int? = nil, _ body: (TargetMemo.Key) -> T) -> T {
        let bytes = Array(text.utf8)
        let start = targetStart ?? (bytes.firstIndex(of: UInt8(ascii: " ")).map { $0 + 1 } ?? 0)
        return bytes.withUnsafeBytes { body(TargetMemo.Key(bytes: $0, targetStart: start)) }
    }

    private func verdict(_ memo: TargetMemo, _ key: String, _ serving: ServingSet,
                         targetStart: Int? = nil) -> TargetMemo.Verdict? {
        withKey(key, targetStart: targetStart) { memo.verdict(for: $0, in: serving) }
    }

    @discardableResult
    private func remember(_ memo: TargetMemo, _ key: String, _ serving: ServingSet, match: Router.Match = .notFound,
                          violations: [String] = [], targetStart: Int? = nil) -> TargetMemo.Verdict {
        withKey(key, targetStart: targetStart) { memo.remember(match, violations: violations, for: $0, in: serving) }
    }

    private func slot(_ key: String) -> Int {
        Array(key.utf8).withUnsafeBytes { TargetMemo.slot(of: $0) }
    }

    @Test func verdict_IsFound_ForTheSameBytesInTheSameSet_Only() throws {
        let (memo, serving) = (TargetMemo(), try serving())
        let key = "GET /api/products?page_no=1&items_per_page=20"
        #expect(verdict(memo, key, serving) == nil)
        let kept = remember(memo, key, serving, violations: ["query parameter page_no is missing"])
        #expect(verdict(memo, key, serving) === kept)
        #expect(verdict(memo, key, serving)?.violations == ["query parameter page_no is missing"])
        for other in ["HEAD /api/products?page_no=1&items_per_page=20", "GET /api/products?page_no=1&items_per_page=21",
                      "GET /api/products?page_no=1&items_per_page=2", "GET /api/products?page_no=1&items_per_page=200"] {
            #expect(verdict(memo, other, serving) == nil, "\(other)")
        }
        #expect(verdict(memo, key, try self.serving()) == nil, "a set loaded again is another set")
    }

    /// A route's verdict comes back with its route and parameters, as the router found them.
    @Test func routeVerdict_KeepsItsRouteAndParameters() throws {
        let (memo, serving) = (TargetMemo(), try serving())
        let route = try #require(serving.routes.first)
        remember(memo, "GET /api/products/7", serving, match: .route(route, parameters: ["id": "7"]))
        guard case .route(let found, let parameters)? = verdict(memo, "GET /api/products/7", serving)?.match else {
            Issue.record("no route verdict")
            return
        }
        #expect(found === route)
        #expect(parameters == ["id": "7"])
    }

    /// A request made in code may have a space in its method: `GET /x` and `/y` make the same bytes as `GET` and
    /// `/x /y`, and are told apart by where the target starts.
    @Test func sameBytes_WithTheTargetElsewhere_AreAnotherKey() throws {
        let (memo, serving) = (TargetMemo(), try serving())
        let first = HTTPRequest(method: "GET /x", target: "/y")
        let second = HTTPRequest(method: "GET", target: "/x /y")
        _ = TargetMemo.Key.with(first) { memo.remember(.notFound, violations: [], for: $0, in: serving) }
        #expect(TargetMemo.Key.with(first) { memo.verdict(for: $0, in: serving) } != nil)
        #expect(TargetMemo.Key.with(second) { memo.verdict(for: $0, in: serving) } == nil)
    }

    @Test func anotherSet_EmptiesTheMemo() throws {
        let (memo, first, second) = (TargetMemo(), try serving(), try serving())
        remember(memo, "GET /healthChecker", first)
        remember(memo, "GET /api/products/1", second)
        #expect(verdict(memo, "GET /api/products/1", second) != nil)
        #expect(verdict(memo, "GET /healthChecker", first) == nil, "forgotten when the second set's verdict came")
        #expect(verdict(memo, "GET /healthChecker", second) == nil)
    }

    @Test func twoTargetsOfOneSlot_TakeTurns() throws {
        let (memo, serving) = (TargetMemo(), try serving())
        let first = "GET /api/products/0"
        let second = try #require((1...10_000).lazy.map { "GET /api/products/\($0)" }.first { slot($0) == slot(first) })
        remember(memo, first, serving)
        remember(memo, second, serving)
        #expect(verdict(memo, second, serving) != nil)
        #expect(verdict(memo, first, serving) == nil, "its slot holds \(second) now")
        remember(memo, first, serving)
        #expect(verdict(memo, first, serving) != nil)
        #expect(verdict(memo, second, serving) == nil)
    }

    @Test func targetLongerThanTheLimit_IsDecidedEachTime() throws {
        let (memo, serving) = (TargetMemo(), try serving())
        let prefix = "GET /"
        let longest = prefix + String(repeating: "a", count: TargetMemo.longestKey - prefix.utf8.count)
        remember(memo, longest, serving)
        remember(memo, longest + "a", serving)
        #expect(verdict(memo, longest, serving) != nil)
        #expect(verdict(memo, longest + "a", serving) == nil)
    }

    /// Many targets spread over the slots rather than crowding a few, and the last byte has a bearing on the slot for
    /// a key shorter than a word, one in the word after whole ones, and one that ends a word.
    @Test func slots_SpreadTheTargets_TheLastByteIncluded() {
        var used = Set<Int>()
        for id in 0..<2_000 { used.insert(slot("GET /api/products/\(id)?page_no=1")) }
        #expect(used.count > (1 << TargetMemo.slotBits) * 9 / 10, "\(used.count) slots used")
        for stem in ["GET /", "GET /abcd", "GET /abcdefghij", "GET /abcdefghijklmn"] {
            let slots = Set("abcdefghijklmnop".map { slot(stem + String($0)) })
            #expect(slots.count > 8, "\(stem)…: \(slots.count) slots for 16 last bytes")
        }
    }
}
