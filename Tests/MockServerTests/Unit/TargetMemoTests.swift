@testable import ContractModel
@testable import HTTPCore
@testable import MockServer
import Testing

/// An event loop's memo of what a method and target decide, without a socket: a verdict is found again only for the
/// same bytes and the same contract set.
struct TargetMemoTests {
    private func serving() throws -> ServingSet {
        let contracts = try ContractLoader.load(contractsDirectory: Repository.contracts,
                                                fixturesDirectory: Repository.fixtures)
        return ServingSet(contracts: contracts, serverScenario: nil)
    }

    private func verdict(_ memo: TargetMemo, _ key: String, _ serving: ServingSet) -> TargetMemo.Verdict? {
        Array(key.utf8).withUnsafeBytes { memo.verdict(for: $0, in: serving) }
    }

    @discardableResult
    private func remember(_ memo: TargetMemo, _ key: String, _ serving: ServingSet,
                          violations: [String] = []) -> TargetMemo.Verdict {
        Array(key.utf8).withUnsafeBytes { memo.remember(.notFound, violations: violations, for: $0, in: serving) }
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

    /// Every byte has a bearing on the slot, the last of a short key and of a long one included, and many targets
    /// spread over the slots rather than crowding a few.
    @Test func slots_SpreadTheTargets() {
        var used = Set<Int>()
        for id in 0..<2_000 { used.insert(slot("GET /api/products/\(id)?page_no=1")) }
        #expect(used.count > (1 << TargetMemo.slotBits) * 9 / 10, "\(used.count) slots used")
        for key in ["", "G", "GET /", "GET /abc", "GET /abcdefgh/ijk"] {
            #expect(slot(key) == slot(String(key)), "the same bytes, the same slot")
            #expect((0..<(1 << TargetMemo.slotBits)).contains(slot(key)))
        }
        let short = Set(["GET /a", "GET /b", "GET /c", "GET /d", "GET /e", "GET /f"].map(slot))
        #expect(short.count > 3, "short keys that differ in their last byte")
    }
}
