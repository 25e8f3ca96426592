import ContractModel
import HTTPCore

/// Counts requests per endpoint (and per session, or for everyone) in fixed windows, for endpoints that
/// declare a ``RateLimit``: the first request opens a window of `windowSeconds`; past `limit` requests
/// in it, the answer is 429 until it ends.
final class RateLimiter: Sendable {
    /// What one request is told.
    struct Admission {
        let allowed: Bool
        let limit: Int
        let remaining: Int
        /// Whole seconds until the window ends (at least 1).
        let resetSeconds: Int
        /// Nanoseconds until the window ends.
        let resetNanoseconds: UInt64
    }

    private struct Window {
        var opened: UInt64
        let length: UInt64
        var count: Int

        func hasEnded(at now: UInt64) -> Bool { now &- opened >= length }
    }

    private struct State {
        var windows: [String: Window] = [:]
        var nextSweep: UInt64 = 0
    }

    private let state = Locked(State())
    /// The most windows kept at once (endpoints × sessions).
    static let maximumWindows = 100_000
    private let now: @Sendable () -> UInt64

    /// - Parameter now: Monotonic nanoseconds; tests pass their own clock.
    init(now: @escaping @Sendable () -> UInt64 = POSIX.monotonicNanoseconds) {
        self.now = now
    }

    func admit(_ limit: RateLimit, endpoint: String, session: String) -> Admission {
        let key = limit.scope == .global ? endpoint : endpoint + "\u{0}" + session
        let window = UInt64(limit.windowSeconds) * 1_000_000_000
        let now = now()
        return state.withValue { state in
            // Ended windows go now and then, so many sessions cannot grow the table without bound.
            if now >= state.nextSweep {
                state.windows = state.windows.filter { !$0.value.hasEnded(at: now) }
                state.nextSweep = now + 10_000_000_000
            }
            // Many sessions at once: past the cap the oldest tenth of the windows goes, as ScenarioStore drops sessions.
            if state.windows[key] == nil && state.windows.count >= Self.maximumWindows {
                let oldest = state.windows.sorted { $0.value.opened < $1.value.opened }.prefix(Self.maximumWindows / 10)
                for (key, _) in oldest { state.windows[key] = nil }
            }
            var current = state.windows[key] ?? Window(opened: now, length: window, count: 0)
            if current.hasEnded(at: now) || current.length != window { current = Window(opened: now, length: window, count: 0) }
            current.count += 1
            state.windows[key] = current
            let left = window - (now &- current.opened)
            return Admission(allowed: current.count <= limit.limit, limit: limit.limit,
                             remaining: max(limit.limit - current.count, 0),
                             resetSeconds: max(1, Int((left + 999_999_999) / 1_000_000_000)), resetNanoseconds: left)
        }
    }
}
