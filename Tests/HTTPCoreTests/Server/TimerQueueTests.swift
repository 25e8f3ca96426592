@testable import HTTPCore
import Testing

/// The event loop's min-heap of deadlines, without a loop.
struct TimerQueueTests {
    @Test func dueTimers_ComeOutSoonestFirst_AndOnlyOnceDue() {
        var queue = TimerQueue()
        let deadlines: [UInt64] = [50, 10, 40, 30, 20, 60, 10, 5, 70, 45]
        for (index, deadline) in deadlines.enumerated() { queue.schedule(.init(deadline: deadline, fd: Int32(index), token: 0)) }
        #expect(queue.nextDeadline == 5)
        #expect(queue.popDue(now: 4).isEmpty)
        let due = queue.popDue(now: 40)
        #expect(due.map(\.deadline) == [5, 10, 10, 20, 30, 40])
        #expect(queue.nextDeadline == 45)
        #expect(queue.popDue(now: .max).map(\.deadline) == [45, 50, 60, 70])
        #expect(queue.nextDeadline == nil)
    }

    @Test func manyRandomDeadlines_ComeOutSorted() {
        var queue = TimerQueue()
        var generator = SystemRandomNumberGenerator()
        let deadlines = (0..<1_000).map { _ in UInt64.random(in: 0..<10_000, using: &generator) }
        for deadline in deadlines { queue.schedule(.init(deadline: deadline, fd: 0, token: 0)) }
        var popped: [UInt64] = []
        for now in stride(from: UInt64(0), to: 10_000, by: 997) { popped += queue.popDue(now: now).map(\.deadline) }
        popped += queue.popDue(now: .max).map(\.deadline)
        #expect(popped.count == deadlines.count && popped == deadlines.sorted(), "popped out of order")
    }
}
