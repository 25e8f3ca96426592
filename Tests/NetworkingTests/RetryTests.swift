#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

/// The client sends a call again as its retry policy says.
struct RetryTests {
    struct Item: Decodable, Equatable, Sendable { let id: Int }

    private func client(_ dispatcher: any NetworkDispatcher, retry: RetryPolicy,
                        interceptors: [any RequestInterceptor] = []) -> APIClient {
        APIClient(environment: .local(port: 9), dispatcher: dispatcher, interceptors: interceptors, retry: retry)
    }

    @Test func retryableStatuses_AreRetried_UntilSuccess_AndAttemptsAreCounted() async {
        // GIVEN a server that answers 503, then 502, then 200
        let waits = Recorder<TimeInterval>()
        let dispatcher = scripted([answer(503), answer(502), answer(200, body: #"{"id":4}"#)])
        let client = client(dispatcher, retry: RetryPolicy(maxAttempts: 3, baseDelay: 1, timing: .recording(waits)))

        // WHEN
        let response = await client.response(for: TestEndpoint(), decoding: .json(Item.self))

        // THEN the third try succeeds after two backoff waits (top of the jitter range: 1 s, then 2 s)
        #expect(response.value == Item(id: 4))
        #expect(response.attempts == 3)
        #expect(dispatcher.requests.count == 3)
        #expect(waits.all == [1, 2])
    }

    @Test func givingUp_ReturnsTheLastOutcome_AfterMaxAttempts() async {
        let dispatcher = scripted([fail(.networkConnectionLost), fail(.timedOut), answer(504)])
        let response = await client(dispatcher, retry: RetryPolicy(maxAttempts: 2, timing: .recording(Recorder())))
            .response(for: TestEndpoint(), decoding: .empty)
        guard case .networkFail(let error) = response.result else { Issue.record("got \(response.result)"); return }
        #expect(error.kind == .timedOut)
        #expect(response.attempts == 2)
    }

    @Test(arguments: [400, 401, 404, 500, 501])
    func otherStatuses_AreNotRetried(status: Int) async {
        let dispatcher = scripted([answer(status), answer(200)])
        let response = await client(dispatcher, retry: RetryPolicy(timing: .recording(Recorder())))
            .response(for: TestEndpoint(), decoding: .empty)
        #expect(response.attempts == 1 && response.status == status)
    }

    @Test func nonIdempotentCalls_AreNotRetried_UnlessTheEndpointOptsIn() async {
        struct KeyedPost: Endpoint {
            var path: String { "/items" }
            var method: HTTPMethod { .post }
            var isIdempotent: Bool { true }
        }
        let policy = RetryPolicy(maxAttempts: 3, timing: .recording(Recorder()))
        let post = await client(scripted([answer(503), answer(200)]), retry: policy)
            .response(for: TestEndpoint(method: .post), decoding: .empty)
        let keyed = await client(scripted([answer(503), answer(200)]), retry: policy)
            .response(for: KeyedPost(), decoding: .empty)
        #expect(post.attempts == 1 && post.status == 503)
        #expect(keyed.attempts == 2 && keyed.status == 200)
    }

    @Test func retryAfter_ReplacesTheBackoff_AndBeyondTheCapIsReturned() async {
        let waits = Recorder<TimeInterval>()
        let policy = RetryPolicy(maxAttempts: 3, maxRetryAfter: 10, timing: .recording(waits))
        let honoured = await client(scripted([answer(429, headers: ["Retry-After": "7"]), answer(200)]), retry: policy)
            .response(for: TestEndpoint(), decoding: .empty)
        let tooLong = await client(scripted([answer(503, headers: ["Retry-After": "3600"]), answer(200)]), retry: policy)
            .response(for: TestEndpoint(), decoding: .empty)
        #expect(honoured.attempts == 2 && honoured.status == 200)
        #expect(waits.all == [7])
        #expect(tooLong.attempts == 1 && tooLong.status == 503 && tooLong.headers["Retry-After"] == "3600")
    }

    @Test func perCallPolicy_OverridesTheClients() async {
        let dispatcher = scripted([answer(503), answer(200)])
        let client = client(dispatcher, retry: RetryPolicy(maxAttempts: 3, timing: .recording(Recorder())))
        let result = await client.send(TestEndpoint(), retry: RetryPolicy.none)
        guard case .serverErr(503) = result else { Issue.record("got \(result)"); return }
        #expect(dispatcher.requests.count == 1)
    }

    @Test func everyAttempt_GoesThroughTheInterceptorsAgain() async {
        let counter = Counter()
        let dispatcher = scripted([answer(503), answer(503), answer(204)])
        let client = client(dispatcher, retry: RetryPolicy(maxAttempts: 3, timing: .recording(Recorder())),
                            interceptors: [BearerTokenInterceptor { "t\(counter.next())" }])
        _ = await client.send(TestEndpoint())
        #expect(dispatcher.requests.map { $0.value(forHTTPHeaderField: "Authorization") }
            == ["Bearer t1", "Bearer t2", "Bearer t3"])
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellation_EndsTheBackoffWaitAtOnce() async {
        // GIVEN a 503 and a real 120 s wait before the retry
        let dispatcher = scripted([answer(503), answer(200)])
        let policy = RetryPolicy(maxAttempts: 2, baseDelay: 120, maxDelay: 120,
                                 timing: RetryTiming(now: { Date() }, sleep: RetryTiming.live.sleep, random: { $0.upperBound }))
        let client = client(dispatcher, retry: policy)
        let task = Task { await client.response(for: TestEndpoint(), decoding: .empty) }

        // WHEN the task is cancelled while it waits
        while dispatcher.requests.isEmpty { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let response = await task.value

        // THEN it returns (the time limit fails a wait out), cancelled, without a second try
        guard case .networkFail(let error) = response.result else { Issue.record("got \(response.result)"); return }
        #expect(error.kind == .cancelled)
        #expect(response.attempts == 1 && dispatcher.requests.count == 1)
    }
}
