import Dispatch
@testable import HTTPCore
import Testing

/// `PerThread` gives each thread a value of its own, the same one on every call, released when the thread ends.
@Suite(.blockingIO) struct PerThreadTests {
    private final class Box: @unchecked Sendable {
        // @unchecked: each box is touched by the one thread it belongs to.
        var count = 0
    }

    /// What a thread saw: its two calls' values, and how many times the second had been counted.
    private struct Seen {
        var first: ObjectIdentifier
        var second: ObjectIdentifier
        var count: Int
        weak var box: Box?
    }

    private static let values = PerThread { Box() }

    @Test func eachThread_HasItsOwnValue_KeptAcrossCalls_ReleasedWhenItEnds() throws {
        let threads = 4
        let seen = Locked<[Seen]>([])
        // Every thread holds its value until all have theirs: an ended thread's box could be freed, and its address
        // given to the next thread's.
        let (ready, go) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        var handles: [POSIX.ThreadHandle] = []
        defer {
            // Also when a thread could not be started: the others are let go, not left waiting.
            for _ in handles { go.signal() }
            for handle in handles { handle.join() }
        }
        for _ in 0..<threads {
            handles.append(try POSIX.startThread(stackSize: 1 << 20) {
                guard let first = Self.values.value else {
                    ready.signal()
                    return
                }
                first.count += 1
                ready.signal()
                go.wait()
                guard let second = Self.values.value else { return }
                second.count += 1
                seen.withValue {
                    $0.append(Seen(first: ObjectIdentifier(first), second: ObjectIdentifier(second), count: second.count,
                                   box: second))
                }
            })
        }
        for _ in 0..<threads { ready.wait() }
        for _ in 0..<threads { go.signal() }
        for handle in handles { handle.join() }
        handles = []
        let all = seen.withValue { $0 }
        #expect(all.count == threads, "every thread had a value")
        #expect(all.allSatisfy { $0.first == $0.second && $0.count == 2 }, "the second call's value is the first's")
        #expect(Set(all.map(\.first)).count == threads, "a value of its own for each thread")
        #expect(all.allSatisfy { $0.box == nil }, "released when its thread ended")
    }
}
