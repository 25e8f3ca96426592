#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

/// A request never outlives its timeout, and cancellation returns at once, whatever the dispatcher does.
struct DeadlineTests {
    // Upper bounds on time are left to the time limits: when other suites hold the cooperative pool, even
    // an instant test can take seconds, so only "waited at least the deadline" and "did not hang" are checked.
    @Test(.timeLimit(.minutes(1)))
    func aDispatcherThatNeverAnswers_IsTimedOut_AtTheEndpointsTimeout() async {
        // GIVEN a dispatcher that hangs and ignores cancellation
        let client = APIClient(environment: .local(port: 9), dispatcher: DeafDispatcher())

        // WHEN a call with a 0.3 s timeout is sent
        let start = ContinuousClock.now
        let result = await client.send(TestEndpoint(timeout: 0.3))

        // THEN it ends with timedOut after about 0.3 s
        let elapsed = ContinuousClock.now - start
        guard case .networkFail(let error) = result else { Issue.record("got \(result)"); return }
        #expect(error.kind == .timedOut)
        #expect((error.underlying as? DeadlineExceeded)?.seconds == 0.3)
        #expect(elapsed >= .milliseconds(300))
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellation_ReturnsAtOnce_EvenWhenTheDispatcherIgnoresIt() async {
        let dispatcher = DeafDispatcher()
        let client = APIClient(environment: .local(port: 9), dispatcher: dispatcher)
        let task = Task { await client.send(TestEndpoint(timeout: 120)) }
        await dispatcher.started.wait()
        task.cancel()
        let result = await task.value
        guard case .networkFail(let error) = result else { Issue.record("got \(result)"); return }
        #expect(error.kind == .cancelled)
    }

    @Test func aTimeoutIsRetried_WhenThePolicySaysSo() async {
        let attempts = Counter()
        let dispatcher = OfflineDispatcher { _ in
            if attempts.next() == 1 { throw URLError(.timedOut) }
            return CannedResponse(status: 204)
        }
        let client = APIClient(environment: .local(port: 9), dispatcher: dispatcher,
                               retry: RetryPolicy(maxAttempts: 2, timing: .recording(Recorder())))
        let response = await client.response(for: TestEndpoint(), decoding: .empty)
        #expect(response.status == 204 && response.attempts == 2)
    }
}
