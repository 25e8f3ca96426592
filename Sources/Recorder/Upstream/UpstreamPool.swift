import HTTPCore

/// A few threads of the proxy's own that make the blocking upstream calls, so that no event loop and no
/// thread of Swift's cooperative pool ever waits on the target. Bounded twice: a fixed number of threads, and
/// a queue that refuses work past its limit.
final class UpstreamPool: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var stopped = false
        var started = 0
    }

    let threads: Int
    let queueLimit: Int
    private let condition = Condition()
    // Only touched while holding `condition`'s lock.
    private let state = Locked(State())

    init(threads: Int, queueLimit: Int) {
        self.threads = max(1, threads)
        self.queueLimit = queueLimit
    }

    /// Runs `job` on a pool thread; starts threads as work arrives, up to ``threads``.
    /// - Returns: `false` when the queue is full or the pool stopped: the job will not run.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let (accepted, start) = condition.withLock { () -> (Bool, Bool) in
            state.withValue { state in
                guard !state.stopped, state.jobs.count < queueLimit else { return (false, false) }
                state.jobs.append(job)
                let start = state.started < threads
                if start { state.started += 1 }
                return (true, start)
            }
        }
        guard accepted else { return false }
        // Detached, never joined: a thread may be inside a call bounded only by the upstream timeout when the
        // process ends, and the process must not wait for it.
        if start, !startThread() {
            // The threads that did start take the job; with none, it is taken back and refused.
            let refused = condition.withLock {
                state.withValue { state -> Bool in
                    state.started -= 1
                    guard state.started == 0 else { return false }
                    state.jobs.removeAll()
                    return true
                }
            }
            if refused { return false }
        }
        condition.withLock { condition.signal() }
        return true
    }

    /// Starts a worker, detached; `false` when the system refused a thread.
    private func startThread() -> Bool {
        guard let thread = try? POSIX.startThread(stackSize: 512 * 1024, { [self] in work() }) else { return false }
        thread.detach()
        return true
    }

    /// Stops the threads once their current job is done; queued jobs are dropped (their waiters time out or
    /// were answered by the stopping server).
    func stop() {
        condition.withLock {
            state.withValue { state in
                state.stopped = true
                state.jobs = []
            }
            condition.broadcast()
        }
    }

    private func work() {
        while true {
            let job = condition.withLock { () -> (@Sendable () -> Void)? in
                while true {
                    let (job, stopped) = state.withValue { state -> ((@Sendable () -> Void)?, Bool) in
                        state.jobs.isEmpty ? (nil, state.stopped) : (state.jobs.removeFirst(), false)
                    }
                    if job != nil || stopped { return job }
                    condition.wait()
                }
            }
            guard let job else { return }
            job()
        }
    }
}
