/// The connections' timers, soonest first (a binary min-heap). A timer that was replaced is not removed:
/// it fires with an old token, which its connection ignores.
struct TimerQueue {
    struct Timer {
        let deadline: UInt64
        let fd: Int32
        let token: UInt64
    }

    private var heap: [Timer] = []

    var nextDeadline: UInt64? { heap.first?.deadline }

    mutating func schedule(_ timer: Timer) {
        heap.append(timer)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns every timer due at `now`.
    mutating func popDue(now: UInt64) -> [Timer] {
        var due: [Timer] = []
        while let first = heap.first, first.deadline <= now {
            due.append(first)
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
                if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return due
    }
}
