#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import HTTPCore
import MockServer
import Networking
import Testing
import TestSupport

/// The client keeps its promises over real sockets, whatever URLSession does: redirects keep what they
/// must, retries and headers work against the mock server, and a 401 with a Basic challenge (which hangs
/// FoundationNetworking) neither hangs the call nor outlives its deadline.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ClientPromiseTests {
    /// A contract of its own: redirects to a POST and a GET endpoint, a flaky endpoint, headers.
    static let contract = #"""
    {
      "domain": "client",
      "endpoints": [
        { "id": "moved307", "method": "POST", "path": "/old/307",
          "scenarios": [ { "name": "redirect", "status": 307, "headers": { "Location": "/new" }, "expect": "networkFail" } ] },
        { "id": "moved308", "method": "POST", "path": "/old/308",
          "scenarios": [ { "name": "redirect", "status": 308, "headers": { "Location": "/new" }, "expect": "networkFail" } ] },
        { "id": "moved303", "method": "POST", "path": "/old/303",
          "scenarios": [ { "name": "redirect", "status": 303, "headers": { "Location": "/new" }, "expect": "networkFail" } ] },
        { "id": "moved302", "method": "POST", "path": "/old/302",
          "scenarios": [ { "name": "redirect", "status": 302, "headers": { "Location": "/new" }, "expect": "networkFail" } ] },
        { "id": "newPost", "method": "POST", "path": "/new",
          "request": { "body": { "type": "json", "fields": { "a": "integer" } } },
          "scenarios": [ { "name": "success", "status": 200, "body": "client/ok.json", "expect": "success" } ] },
        { "id": "newGet", "method": "GET", "path": "/new",
          "scenarios": [ { "name": "success", "status": 200, "body": "client/ok.json", "expect": "success" } ] },
        { "id": "flaky", "method": "GET", "path": "/flaky",
          "scenarios": [
            { "name": "unavailable", "status": 503, "headers": { "Retry-After": "0" }, "expect": "serverErr" },
            { "name": "success", "status": 200, "body": "client/ok.json", "expect": "success" },
            { "name": "twice", "sequence": ["unavailable", "unavailable", "success"] }
          ] },
        { "id": "limited", "method": "GET", "path": "/limited",
          "rateLimit": { "limit": 1, "windowSeconds": 2 },
          "scenarios": [ { "name": "success", "status": 200, "body": "client/ok.json", "expect": "success" } ] },
        { "id": "limitedLong", "method": "GET", "path": "/limitedLong",
          "rateLimit": { "limit": 1, "windowSeconds": 120 },
          "scenarios": [ { "name": "success", "status": 200, "body": "client/ok.json", "expect": "success" } ] },
        { "id": "counted", "method": "GET", "path": "/counted",
          "scenarios": [ { "name": "success", "status": 200, "body": "client/ok.json",
                           "headers": { "X-Total-Count": "42", "ETag": "\"v1\"" }, "expect": "success" } ] }
      ]
    }
    """#

    struct OK: Decodable, Equatable, Sendable { let ok: Bool }

    struct Call: Endpoint {
        var path: String
        var method: HTTPMethod = .get
        var body: any RequestBody = PlainBody()
        // Generous: under the sanitizers a starved test pool has held an attempt for more than 5 s.
        var timeout: TimeInterval? = 30
    }

    /// Starts a server on the scratch contract and gives `body` a client playing `scenario` in a session of its own.
    private func withClient<T>(
        scenario: String? = nil,
        retry: RetryPolicy = .none,
        _ body: (APIClient, MockServer, MockSession) async throws -> T
    ) async throws -> T {
        let scratch = try ScratchContracts(contracts: [("client.json", Self.contract)],
                                           fixtures: [("client/ok.json", #"{"ok": true}"#)])
        let server = try MockServer.backend(serving: scratch)
        defer { server.stop() }
        let session = MockSession(scenario: scenario)
        let client = APIClient(environment: .local(port: Int(server.port)), interceptors: [session], retry: retry)
        return try await body(client, server, session)
    }

    // MARK: - Rate limits

    /// The server's rate limit answers 429 with `Retry-After`; the client's policy waits it out and the
    /// retry succeeds in the next window. The budget is spent by an interceptor just before the first
    /// attempt goes out. When the whole suite starves the test pool for longer than the window (it has, for
    /// 18 s), the attempt meets a new window and succeeds at once; either way a 429 must be retried.
    @Test func retry_HonoursRetryAfter_OfARateLimit() async throws {
        try await withClient(retry: RetryPolicy(maxAttempts: 3)) { client, server, session in
            let spender = BudgetSpender(port: server.port, path: "/limited", session: session.id)
            let limited = await client.response(for: Call(path: "/limited"), decoding: .json(OK.self), interceptors: [spender])
            #expect(limited.value == OK(ok: true), "\(limited.result)")
            let statuses = try server.journalEntries(JournalQuery(endpoint: "limited")).compactMap(\.status)
            #expect(statuses == [200, 429, 200] && limited.attempts == 2 || statuses == [200, 200] && limited.attempts == 1,
                    "statuses \(statuses), \(limited.attempts) attempts")
            #expect(limited.headers["RateLimit-Limit"] == "1")
        }
    }

    /// A `Retry-After` longer than the policy's cap is not waited: the 429 comes back at once, with it.
    @Test func retry_DeclinesARetryAfterPastItsCap() async throws {
        try await withClient(retry: RetryPolicy(maxAttempts: 3, maxRetryAfter: 5)) { client, server, session in
            _ = try RawClient(port: server.port).get("/limitedLong", headers: [MockHeader.session: session.id])
            let refused = await client.response(for: Call(path: "/limitedLong"), decoding: .json(OK.self))
            guard case .requestErr(429, _) = refused.result else { Issue.record("got \(refused.result)"); return }
            #expect(refused.attempts == 1)
            // The window is 120 s; a starved test pool may spend some of it before the call arrives.
            #expect((6...120).contains(Int(refused.headers["Retry-After"] ?? "") ?? 0), "\(refused.headers["Retry-After"] ?? "-")")
        }
    }

    /// On the first try of a call, spends the endpoint's budget with a request of its own.
    private final class BudgetSpender: RequestInterceptor, Sendable {
        let port: UInt16, path: String, session: String
        private let spent = Locked(false)

        init(port: UInt16, path: String, session: String) {
            (self.port, self.path, self.session) = (port, path, session)
        }

        func adapt(_ request: URLRequest) async throws -> URLRequest {
            let first = spent.withValue { spent in
                defer { spent = true }
                return !spent
            }
            if first {
                _ = try RawClient(port: port).get(path, headers: [MockHeader.session: session])
            }
            return request
        }
    }

    // MARK: - Redirects

    @Test(arguments: [307, 308])
    func redirect307And308_KeepTheMethodAndTheBody(status: Int) async throws {
        try await withClient { client, server, session in
            // WHEN a POST with a JSON body is redirected
            let result = await client.send(Call(path: "/old/\(status)", method: .post, body: .json(["a": 1])),
                                           decoding: .json(OK.self))

            // THEN the new URL got a POST with the same body, which the contract checked
            #expect(result.value == OK(ok: true))
            let arrived = try #require(server.journal.entries().last { $0.session == session.id && $0.endpoint == "newPost" })
            #expect(arrived.method == "POST")
            #expect(arrived.bodyText == #"{"a":1}"#)
            #expect(arrived.violations == [])
        }
    }

    @Test(arguments: [303, 302])
    func redirect303And302_TurnThePostIntoAGet(status: Int) async throws {
        try await withClient { client, server, session in
            let result = await client.send(Call(path: "/old/\(status)", method: .post, body: .json(["a": 1])),
                                           decoding: .json(OK.self))
            #expect(result.value == OK(ok: true))
            let arrived = try #require(server.journal.entries().last { $0.session == session.id && $0.endpoint == "newGet" })
            #expect(arrived.method == "GET" && arrived.bodySize == 0)
            #expect(arrived.header("Content-Type") == nil)
        }
    }

    // MARK: - Retries and headers

    @Test func retry_GetsPastTwo503s_WithRetryAfterZero() async throws {
        // Retry-After: 0 replaces the 5 s backoff; the waits are recorded, not slept.
        let waits = Recorder()
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: 5,
                                 timing: RetryTiming(now: { Date() }, sleep: { waits.append($0) }, random: { $0.upperBound }))
        try await withClient(scenario: "twice", retry: policy) { client, server, session in
            let response = await client.response(for: Call(path: "/flaky"), decoding: .json(OK.self))
            #expect(response.value == OK(ok: true))
            #expect(response.attempts == 3)
            #expect(waits.all == [0, 0])
            #expect(server.journal.entries().filter { $0.session == session.id }.map(\.status) == [503, 503, 200])
        }
    }

    @Test func headers_OfASuccessAndOfAServerErr_AreReadable() async throws {
        try await withClient { client, _, _ in
            let counted = await client.response(for: Call(path: "/counted"), decoding: .json(OK.self))
            #expect(counted.headers["x-total-count"] == "42")
            #expect(counted.headers["ETag"] == #""v1""#)
            let unavailable = await client.response(for: Call(path: "/flaky"), decoding: .json(OK.self),
                                                    interceptors: [MockSession().playing("unavailable")])
            guard case .serverErr(503) = unavailable.result else { Issue.record("got \(unavailable.result)"); return }
            #expect(unavailable.headers["Retry-After"] == "0")
        }
    }

    // MARK: - A 401 with a Basic challenge

    static let basicChallenge = "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"test\"\r\n"
        + "Content-Type: application/json\r\nContent-Length: 28\r\nConnection: close\r\n\r\n"
        + #"{"message":"who goes there"}"#

    /// A hang would end at the client's deadline as `timedOut`; the 401 itself must come back.
    @Test(.timeLimit(.minutes(2)))
    func basicChallenge_IsARequestErr_NotAHang() async throws {
        let server = try CannedServer(response: Self.basicChallenge)
        defer { server.stop() }
        let client = APIClient(environment: .local(port: Int(server.port)))
        let result = await client.send(Call(path: "/basic-auth", timeout: 60))
        guard case .requestErr(401, let message) = result else { Issue.record("got \(result)"); return }
        #expect(message == "who goes there")
    }

    @Test(.timeLimit(.minutes(2)))
    func basicChallenge_ThroughAPlainURLSession_EndsAtTheClientsDeadline() async throws {
        // GIVEN a dispatcher that calls URLSession.data(for:) itself, which FoundationNetworking never
        // resumes on a Basic challenge (swift-corelibs-foundation #5456), whatever the request's timeout
        let server = try CannedServer(response: Self.basicChallenge)
        defer { server.stop() }
        let client = APIClient(environment: .local(port: Int(server.port)), dispatcher: PlainSessionDispatcher())

        // WHEN a call with a 1 s timeout is sent
        let start = ContinuousClock.now
        let result = await client.send(Call(path: "/basic-auth", timeout: 1))
        let elapsed = ContinuousClock.now - start

        // THEN it ends by the client's deadline (the time limit fails a hang): timedOut, no sooner than the
        // deadline, where URLSession hangs; the 401 at once where it does not (Darwin)
        #if canImport(FoundationNetworking)
        #expect(elapsed >= .seconds(1))
        guard case .networkFail(let error) = result else { Issue.record("got \(result)"); return }
        #expect(error.kind == .timedOut)
        #expect(error.underlying is DeadlineExceeded)
        #else
        #expect(elapsed < .seconds(1))
        #expect(result.caseName == "requestErr")
        #endif
    }
}

/// Sends through `URLSession.data(for:)` with no delegate: URLSession's own redirect and challenge handling.
struct PlainSessionDispatcher: NetworkDispatcher {
    let session = URLSession(configuration: .ephemeral)

    func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// A thread-safe list of the waits a retry policy asked for.
final class Recorder: @unchecked Sendable {
    // @unchecked: `items` is only touched while holding `lock`.
    private let lock = NSLock()
    private var items: [TimeInterval] = []
    func append(_ item: TimeInterval) { lock.withLock { items.append(item) } }
    var all: [TimeInterval] { lock.withLock { items } }
}
