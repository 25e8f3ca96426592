import ContractModel
import HTTPCore

/// Counts requests per endpoint (and per session, or for everyone) in fixed windows, for endpoints that
/// declare a ``RateLimit``: the first request opens a window of `windowSeconds`; past `limit` requests
/// in it, the answer is 429 until it ends. A session's windows live in its ``SessionTable`` record, so they
/// go when it goes; the windows of limits for everyone are kept here, one per endpoint.
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

    /// One endpoint's window, for one session or for everyone.
    struct Window: Sendable {
        var opened: UInt64
        let length: UInt64
        var count: Int

        func hasEnded(at now: UInt64) -> Bool { now &- opened >= length }
    }

    private let sessions: SessionTable
    /// The windows of limits for everyone, by endpoint id.
    private let global = Locked<[String: Window]>([:])

    init(sessions: SessionTable) {
        self.sessions = sessions
    }

    func admit(_ limit: RateLimit, endpoint: String, session: String) -> Admission {
        let length = UInt64(limit.windowSeconds) * 1_000_000_000
        // The clock is read under the lock that guards the window, so no other request's later time is in it yet.
        if limit.scope == .global {
            return global.withValue { Self.admit(limit, length: length, now: sessions.clock(), into: &$0[endpoint]) }
        }
        return sessions.withRecord(session, creating: true) { record in
            var window = record?.windows.removeValue(forKey: endpoint)
            defer { record?.windows[endpoint] = window }
            return Self.admit(limit, length: length, now: sessions.clock(), into: &window)
        }
    }

    /// Counts one request in `window`, opening a new one when there is none or it has ended.
    private static func admit(_ limit: RateLimit, length: UInt64, now: UInt64, into window: inout Window?) -> Admission {
        var current = window ?? Window(opened: now, length: length, count: 0)
        if current.hasEnded(at: now) || current.length != length { current = Window(opened: now, length: length, count: 0) }
        current.count += 1
        window = current
        let left = length - (now &- current.opened)
        return Admission(allowed: current.count <= limit.limit, limit: limit.limit,
                         remaining: max(limit.limit - current.count, 0),
                         resetSeconds: max(1, Int((left + 999_999_999) / 1_000_000_000)), resetNanoseconds: left)
    }
}
