@testable import HTTPCore
import Testing

/// The connection's spare request slot: lent out and put back by moves, each value freed exactly once.
struct SpareValueTests {
    /// Counts the instances alive, to see that the slot frees what it replaces and what it holds at its end.
    private final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let id: Int
        init(_ id: Int) { self.id = id; Tracked.alive += 1 }
        deinit { Tracked.alive -= 1 }
    }

    @Test func takenOnce_PutBack_AndALaterPutReplacesIt() {
        Tracked.alive = 0
        do {
            var spare = SpareValue(Tracked(1))
            let first = spare.take()
            #expect(first?.id == 1)
            #expect(spare.take() == nil, "lent out: a second taker gets none")
            // A nested user puts its own value back first; the outer one's, put back last, is kept.
            spare.put(Tracked(2))
            #expect(Tracked.alive == 2)
            spare.put(first!)
            #expect(Tracked.alive == 1, "the value replaced is freed")
            #expect(spare.take()?.id == 1)
            spare.put(Tracked(3))
        }
        #expect(Tracked.alive == 0, "the value held is freed with the slot")
    }
}
