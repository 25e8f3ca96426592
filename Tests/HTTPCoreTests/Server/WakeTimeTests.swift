@testable import HTTPCore
import Testing

/// When a connection's one timer is armed: never later than a deadline it can reach, never in the past
/// while nothing is due (which would spin the loop).
struct WakeTimeTests {
    private let second: UInt64 = 1_000_000_000
    private var settings: ServerSettings {
        var settings = ServerSettings()
        settings.headerTimeout = 10 * second
        settings.bodyTimeout = 30 * second
        settings.idleTimeout = 60 * second
        settings.writeTimeout = 30 * second
        return settings
    }

    @Test func idleConnection_WakesAfterTheShortestTimeout_NotItsIdleDeadline() {
        let now = 100 * second
        let at = Connection.wakeTime(deadline: now + 60 * second, now: now, requestStarted: nil, settings: settings)
        #expect(at == now + 10 * second)
    }

    @Test func requestInProgress_WakesByItsShortestRequestTimeout() {
        let now = 100 * second
        let at = Connection.wakeTime(deadline: now + 30 * second, now: now, requestStarted: now - 2 * second,
                                     settings: settings)
        #expect(at == now + 8 * second)
    }

    /// A body still arriving 12 s after the first byte: the header timeout has passed, the body's has
    /// not. The wake must lie ahead, or the loop fires and re-arms without sleeping until the body ends.
    @Test func slowUpload_PastTheHeaderTimeout_WakesInTheFuture() {
        let now = 112 * second
        let at = Connection.wakeTime(deadline: 130 * second, now: now, requestStarted: 100 * second, settings: settings)
        #expect(at > now)
        #expect(at == 122 * second)
    }

    @Test func dueDeadline_WakesAtIt() {
        let now = 100 * second
        #expect(Connection.wakeTime(deadline: now - 1, now: now, requestStarted: nil, settings: settings) == now - 1)
    }
}
