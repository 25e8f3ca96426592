#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

struct APIClientTests {
    struct Item: Decodable, Equatable, Sendable { let id: Int }

    private func client(_ dispatcher: any NetworkDispatcher, interceptors: [any RequestInterceptor] = []) -> APIClient {
        APIClient(environment: .local(port: 9), dispatcher: dispatcher, interceptors: interceptors)
    }

    @Test func send_DecodesCannedResponse() async {
        let dispatcher = OfflineDispatcher(routes: ["GET /items": .json(#"{"id":1}"#)])
        let result = await client(dispatcher).send(TestEndpoint(), decoding: .json(Item.self))
        #expect(result.value == Item(id: 1))
        #expect(dispatcher.requests.map { $0.url?.path } == ["/items"])
    }

    @Test func send_IsNetworkFail_WhenNoRouteMatches() async {
        let result = await client(OfflineDispatcher(routes: [:])).send(TestEndpoint(), decoding: .json(Item.self))
        guard case .networkFail(let error) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(error.kind == .cannotConnect)
    }

    @Test func send_IsInvalidRequest_AndDispatchesNothing_WhenBuildFails() async {
        let dispatcher = OfflineDispatcher(routes: [:])
        let result = await client(dispatcher).send(TestEndpoint(method: .get, body: .json(["a": 1])))
        guard case .networkFail(let error) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(error.kind == .invalidRequest)
        #expect(dispatcher.requests.isEmpty)
    }

    @Test func interceptors_RunInOrder_ClientsFirst() async throws {
        struct Append: RequestInterceptor {
            let value: String
            func adapt(_ request: URLRequest) async throws -> URLRequest {
                var request = request
                request.setValue((request.value(forHTTPHeaderField: "X-Trail") ?? "") + value,
                                 forHTTPHeaderField: "X-Trail")
                return request
            }
        }
        let dispatcher = OfflineDispatcher { _ in CannedResponse(status: 204) }
        let client = client(dispatcher, interceptors: [Append(value: "a"), Append(value: "b")])
        _ = await client.send(TestEndpoint(), interceptors: [Append(value: "c")])
        let request = try #require(dispatcher.requests.first)
        #expect(request.value(forHTTPHeaderField: "X-Trail") == "abc")
    }

    @Test func bearerInterceptor_AsksProviderEveryCall_AndHeaderInterceptorSetsFields() async throws {
        let counter = Counter()
        let dispatcher = OfflineDispatcher { _ in CannedResponse(status: 204) }
        let client = client(dispatcher, interceptors: [
            BearerTokenInterceptor { "t\(counter.next())" }, HeaderInterceptor(["X-Mock-Scenario": "slow"]),
        ])
        _ = await client.send(TestEndpoint())
        _ = await client.send(TestEndpoint())
        let requests = dispatcher.requests
        #expect(requests.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer t1", "Bearer t2"])
        #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: "X-Mock-Scenario") == "slow" })
    }

    @Test func throwingInterceptor_IsNetworkFail_AndSendsNothing() async {
        struct NoToken: Error {}
        let dispatcher = OfflineDispatcher(routes: [:])
        let client = client(dispatcher, interceptors: [BearerTokenInterceptor { throw NoToken() }])
        let result = await client.send(TestEndpoint())
        guard case .networkFail(let error) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(error.underlying is NoToken)
        #expect(dispatcher.requests.isEmpty)
    }

    @Test func completionAPI_DeliversResultOnce() async {
        let dispatcher = OfflineDispatcher(routes: ["GET /items": .json(#"{"id":5}"#)])
        let client = client(dispatcher)
        let result = await withCheckedContinuation { continuation in
            client.send(TestEndpoint(), decoding: .json(Item.self), queue: .global()) { result in
                continuation.resume(returning: result)
            }
        }
        #expect(result.value == Item(id: 5))
    }

    @Test func cancellation_YieldsCancelledNetworkFail() async {
        let dispatcher = SuspendingDispatcher()
        let client = client(dispatcher)
        let task = Task { await client.send(TestEndpoint(), decoding: .json(Item.self)) }
        await dispatcher.started.wait()
        task.cancel()
        let result = await task.value
        guard case .networkFail(let error) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(error.kind == .cancelled)
    }

    @Test func completionAPI_Cancel_DeliversCancelled() async {
        let dispatcher = SuspendingDispatcher()
        let client = client(dispatcher)
        let result: NetworkResult<Item> = await withCheckedContinuation { continuation in
            let call = client.send(TestEndpoint(), decoding: .json(Item.self)) { continuation.resume(returning: $0) }
            Task {
                await dispatcher.started.wait()
                call.cancel()
            }
        }
        guard case .networkFail(let error) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(error.kind == .cancelled)
    }
}

/// A thread-safe counter for token providers.
final class Counter: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.withLock { value += 1; return value } }
}

/// A one-shot signal tests await instead of sleeping.
actor Signal {
    private var fired = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    func fire() {
        fired = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
    func wait() async {
        if fired { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// A dispatcher that never answers until its task is cancelled, like a server that hangs.
struct SuspendingDispatcher: NetworkDispatcher {
    let started = Signal()
    func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        await started.fire()
        // Cancelling the task ends the sleep at once with CancellationError; a test that never cancels
        // gets a timeout instead of hanging the run.
        try await Task.sleep(for: .seconds(30))
        throw URLError(.timedOut)
    }
}
