import Dispatch
@testable import HTTPCore
import Testing

/// `PerThread` gives each thread a value of its own, the same one on every call, released when the thread ends.
@Suite(.blockingIO) struct PerThreadTests {
    private final class Box: @unchecked Sendable {
        // @unchecked: each box is touched by the one thread it belongs to, then read after that thread is joined.
        var count = 0
    }

    /// The boxes the threads saw (as identities, twice each), and weak references to them once the threads ended.
    private final class Seen: @unchecked Sendable {
        // @unchecked: each thread writes only its own index, read after every thread is joined.
        var identities: [[ObjectIdentifier]]
        var boxes: [WeakBox]
        init(threads: Int) {
            identities = Array(repeating: [], count: threads)
            boxes = Array(repeating: WeakBox(), count: threads)
        }
    }

    private struct WeakBox { weak var box: Box? }

    private static let values = PerThread { Box() }

    @Test func eachThread_HasItsOwnValue_KeptAcrossCalls_ReleasedWhenItEnds() throws {
        let threads = 4
        let seen = Seen(threads: threads)
        // Every thread holds its value until all have theirs: an ended thread's box could be freed, and its address
        // given to the next thread's.
        let (ready, go) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let handles = try (0..<threads).map { index in
            try POSIX.startThread(stackSize: 1 << 20) {
                let first = Self.values.value
                first.count += 1
                ready.signal()
                go.wait()
                let second = Self.values.value
                second.count += 1
                seen.identities[index] = [ObjectIdentifier(first), ObjectIdentifier(second)]
                seen.boxes[index].box = second
                #expect(second.count == 2, "the second call's value is the first's")
            }
        }
        for _ in 0..<threads { ready.wait() }
        for _ in 0..<threads { go.signal() }
        for handle in handles { handle.join() }
        #expect(seen.identities.allSatisfy { $0.count == 2 && $0[0] == $0[1] })
        #expect(Set(seen.identities.map { $0[0] }).count == threads, "a value of its own for each thread")
        #expect(seen.boxes.allSatisfy { $0.box == nil }, "released when its thread ended")
    }
}
