/// Writes the process's log lines (the access log, the server's warnings) from a thread of its own, so
/// an event loop never waits on standard output: a harness that reads only the first line, or a pipe
/// nobody drains, must not stop the server answering. Lines wait in a bounded queue; when it is full
/// they are dropped, and once output moves again one line says how many.
public final class LogWriter: @unchecked Sendable {
    // @unchecked: every stored var is touched only inside `condition.withLock`.

    /// The process's standard output and standard error are one resource, so there is one writer.
    public static let shared = LogWriter(capacity: 10_000)

    private struct Line {
        let text: String
        let toStandardError: Bool
    }

    private let capacity: Int
    private let condition = Condition()
    private var queue: [Line] = []
    private var dropped = 0
    private var started = false
    /// Whether the thread is writing lines it took from the queue.
    private var writing = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Queues `text` as one line; never blocks on the output.
    public func write(_ text: String, toStandardError: Bool = false) {
        let startThread = condition.withLock {
            guard queue.count < capacity else {
                dropped += 1
                return false
            }
            queue.append(Line(text: text, toStandardError: toStandardError))
            condition.signal()
            defer { started = true }
            return !started
        }
        if startThread {
            do {
                _ = try POSIX.startThread(stackSize: 256 * 1024) { [self] in run() }
            } catch {
                // Without its thread nothing would ever be written: say so once, directly.
                POSIX.writeLine("mock-server: cannot start the log writer (\(error)); log lines are lost",
                                toStandardError: true)
            }
        }
    }

    /// Waits up to `seconds` for queued lines to be written (before the process exits).
    public func flush(seconds: Double = 1) {
        let deadline = POSIX.monotonicNanoseconds() + UInt64(seconds * 1_000_000_000)
        while condition.withLock({ !queue.isEmpty || writing }), POSIX.monotonicNanoseconds() < deadline {
            POSIX.sleep(milliseconds: 5)
        }
    }

    private func run() {
        while true {
            let (lines, lost) = condition.withLock {
                while queue.isEmpty && dropped == 0 { condition.wait() }
                writing = true
                defer { queue = []; dropped = 0 }
                return (queue, dropped)
            }
            for line in lines { POSIX.writeLine(line.text, toStandardError: line.toStandardError) }
            if lost > 0 {
                POSIX.writeLine("mock-server: \(lost) log line(s) dropped: standard output was not being read",
                                toStandardError: true)
            }
            condition.withLock { writing = false }
        }
    }
}
