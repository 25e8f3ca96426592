import Foundation
@testable import HTTPCore
@testable import MockServer
import TestSupport
import Testing

/// Timeouts on timers that tick only when something is due: each still fires near its deadline,
/// including a deadline that starts long after the connection opened.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct TimeoutTests {
    @Test func idleConnection_IsClosed_AfterTheIdleTimeout_NotBefore() async throws {
        try await withServer(configure: { $0.idleTimeout = 0.5 }) { server in
            let client = try RawClient(port: server.port, timeout: 5)
            // Timed from before the request: the idle time counts from the server's read of it, and under
            // ThreadSanitizer the response took over 50 ms to come back, so a clock started on its arrival read
            // 448 ms for a connection closed on time.
            let sent = ContinuousClock.now
            #expect(try client.get("/healthChecker").status == 200)
            let (bytes, end) = client.readToEnd()
            let waited = ContinuousClock.now - sent
            #expect(bytes.isEmpty && end == .closed)
            #expect(waited >= .milliseconds(450) && waited < .seconds(3), "closed after \(waited)")
        }
    }

    @Test func bodyThatStopsComing_Is408_AfterTheBodyTimeout() async throws {
        try await withServer(configure: { $0.bodyTimeout = 0.5 }) { server in
            let client = try RawClient(port: server.port, timeout: 5)
            let started = ContinuousClock.now
            client.send("PUT /api/v1/question HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{\"index\":")
            let response = try client.readResponse()
            let waited = ContinuousClock.now - started
            #expect(response.status == 408)
            #expect(waited >= .milliseconds(450) && waited < .seconds(3), "answered after \(waited)")
        }
    }

    /// A quiet keep-alive connection is armed for its idle deadline; a request that starts later and
    /// stalls must still time out on its own, shorter, header deadline. (The idle timeout is far off: under
    /// ThreadSanitizer, with the whole suite at once, the 700 ms pause has lasted over 30 s.)
    @Test func headerTimeout_StartingLongAfterTheConnection_FiresOnTime() async throws {
        try await withServer(configure: { $0.headerTimeout = 0.3; $0.idleTimeout = 600 }) { server in
            let client = try RawClient(port: server.port, timeout: 5)
            #expect(try client.get("/healthChecker").status == 200)
            try await Task.sleep(for: .milliseconds(700))
            let started = ContinuousClock.now
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\n")
            let response = try client.readResponse()
            let waited = ContinuousClock.now - started
            #expect(response.status == 408)
            #expect(waited >= .milliseconds(250) && waited < .seconds(2), "answered after \(waited)")
        }
    }
}
