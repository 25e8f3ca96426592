#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

/// A 401 to a request that sent credentials refreshes them once, shared by every call that hit it, and replays.
struct AuthRefreshTests {
    /// Tokens that a refresh replaces; the server accepts only the latest.
    final class Tokens: @unchecked Sendable {
        // @unchecked: `token` and `refreshes` are only touched while holding `lock`.
        private let lock = NSLock()
        private var token = "old"
        private var refreshes = 0
        var current: String { lock.withLock { token } }
        var refreshCount: Int { lock.withLock { refreshes } }
        func refresh() async throws {
            // Long enough that the concurrent 401s arrive while it runs.
            try await Task.sleep(for: .milliseconds(100))
            lock.withLock { refreshes += 1; token = "new\(refreshes)" }
        }
    }

    /// 200 for the latest token once refreshed ("old" has expired), else 401 with a message.
    private func server(_ tokens: Tokens) -> OfflineDispatcher {
        OfflineDispatcher { request in
            tokens.current != "old" && request.value(forHTTPHeaderField: "Authorization") == "Bearer \(tokens.current)"
                ? CannedResponse(status: 200, body: Data("OK".utf8))
                : CannedResponse.json(#"{"message":"token expired"}"#, status: 401)
        }
    }

    @Test func concurrent401s_ShareOneRefresh_AndEveryCallSucceedsOnReplay() async {
        // GIVEN 50 calls that all send the expired token
        let tokens = Tokens()
        let dispatcher = server(tokens)
        let client = APIClient(environment: .local(port: 9), dispatcher: dispatcher,
                               interceptors: [BearerTokenInterceptor { tokens.current }],
                               authRefresher: AuthRefresher { try await tokens.refresh() })
        let stale = BearerTokenInterceptor { "old" }

        // WHEN they run at once (the first try of each forced onto the old token)
        let results = await withTaskGroup(of: NetworkResponse<String>.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    await client.response(for: TestEndpoint(), decoding: .text, interceptors: [FirstTryOnly(stale)])
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        // THEN one refresh served them all, and each succeeded on its one replay
        #expect(tokens.refreshCount == 1)
        #expect(results.allSatisfy { $0.value == "OK" && $0.attempts == 2 })
    }

    @Test func failedRefresh_ReturnsTheOriginal401_ToEveryCall() async {
        struct Denied: Error {}
        let refreshes = Counter()
        let client = APIClient(
            environment: .local(port: 9),
            dispatcher: GatedDispatcher(count: 20, answer: .json(#"{"message":"token expired"}"#, status: 401)),
            interceptors: [BearerTokenInterceptor { "old" }],
            authRefresher: AuthRefresher {
                _ = refreshes.next()
                try await Task.sleep(for: .milliseconds(100))
                throw Denied()
            })
        let results = await withTaskGroup(of: NetworkResponse<Void>.self) { group in
            for _ in 0..<20 { group.addTask { await client.response(for: TestEndpoint(), decoding: .empty) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for response in results {
            guard case .requestErr(401, "token expired") = response.result else {
                Issue.record("got \(response.result)"); continue
            }
            #expect(response.attempts == 1)
        }
        // Every request went out before the one refresh failed; none starts another.
        #expect(refreshes.next() == 2)
    }

    @Test func noRefresh_WhenTheRequestSentNoCredentials() async {
        let refreshes = Counter()
        let client = APIClient(environment: .local(port: 9),
                               dispatcher: OfflineDispatcher { _ in CannedResponse(status: 401) },
                               authRefresher: AuthRefresher { _ = refreshes.next() })
        let response = await client.response(for: TestEndpoint(), decoding: .empty)
        #expect(response.attempts == 1 && response.status == 401)
        #expect(refreshes.next() == 1)
    }

    @Test func aSecond401_AfterTheReplay_IsReturned_WithoutAnotherRefresh() async {
        let refreshes = Counter()
        let dispatcher = OfflineDispatcher { _ in CannedResponse(status: 401) }
        let client = APIClient(environment: .local(port: 9), dispatcher: dispatcher,
                               interceptors: [BearerTokenInterceptor { "t" }],
                               authRefresher: AuthRefresher { _ = refreshes.next() })
        let response = await client.response(for: TestEndpoint(), decoding: .empty)
        guard case .requestErr(401, _) = response.result else { Issue.record("got \(response.result)"); return }
        #expect(response.attempts == 2 && dispatcher.requests.count == 2)
        #expect(refreshes.next() == 2)
    }
}

/// Applies `inner` to the first request it sees only; later ones pass unchanged.
final class FirstTryOnly: RequestInterceptor, @unchecked Sendable {
    // @unchecked: `used` is only touched while holding `lock`.
    private let lock = NSLock()
    private var used = false
    private let inner: any RequestInterceptor
    init(_ inner: any RequestInterceptor) { self.inner = inner }
    func adapt(_ request: URLRequest) async throws -> URLRequest {
        let first = lock.withLock { () -> Bool in defer { used = true }; return !used }
        return first ? try await inner.adapt(request) : request
    }
}

/// Holds every request until `count` have arrived, then answers each with `answer`: all of them go out
/// before any response comes back.
actor GatedDispatcher: NetworkDispatcher {
    private let count: Int
    private let answer: CannedResponse
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrived = 0

    init(count: Int, answer: CannedResponse) {
        self.count = count
        self.answer = answer
    }

    func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        arrived += 1
        if arrived < count {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            waiting.forEach { $0.resume() }
            waiting = []
        }
        let response = HTTPURLResponse(url: request.url!, statusCode: answer.status, httpVersion: "HTTP/1.1",
                                       headerFields: answer.headers)!
        return (answer.body, response)
    }
}
