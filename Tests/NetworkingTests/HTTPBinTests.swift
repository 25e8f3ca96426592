#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

/// Where `Tests/HTTPBin/run.sh` started httpbin, or `nil` when it did not: the suite is then reported as
/// skipped (never silently passed), and the script fails if it was.
enum HTTPBin {
    static let url: URL? = ProcessInfo.processInfo.environment["HTTPBIN_URL"].flatMap(URL.init(string:))

    static func client(
        dispatcher: any NetworkDispatcher = URLSessionDispatcher(),
        interceptors: [any RequestInterceptor] = [],
        retry: RetryPolicy = .none
    ) throws -> APIClient {
        let base = try #require(url)
        return APIClient(environment: ServerEnvironment(name: "httpbin", baseURL: base), dispatcher: dispatcher,
                         interceptors: interceptors, defaultTimeout: 10, retry: retry)
    }
}

/// What httpbin echoes of a request.
struct Echo: Decodable, Sendable {
    let args: [String: String]?
    let form: [String: String]?
    let files: [String: String]?
    let headers: [String: String]
    let method: String?
    let url: String?
    let data: String?
}

/// The client against a server nobody here wrote: httpbin (https://github.com/psf/httpbin), on loopback.
@Suite(.timeLimit(.minutes(2)), .enabled(if: HTTPBin.url != nil, "HTTPBIN_URL is not set: run Tests/HTTPBin/run.sh"))
struct HTTPBinTests {
    struct Payload: Codable, Equatable, Sendable { let name: String; let count: Int; let tags: [String] }
    struct JSONEcho: Decodable, Sendable { let json: Payload? }

    // MARK: - Requests as sent

    @Test func query_EncodesReservedAndNonASCIICharacters() async throws {
        let items = [QueryItem("q", "a b+c&d=e/f?g#h;i,j"), QueryItem("k", "한글 é ñ"), QueryItem("empty", "")]
        let echo = try #require(try await HTTPBin.client().send(TestEndpoint(path: "/get", body: .query(items)),
                                                            decoding: .json(Echo.self)).value)
        #expect(echo.args == ["q": "a b+c&d=e/f?g#h;i,j", "k": "한글 é ñ", "empty": ""])
    }

    @Test func json_IsEchoed() async throws {
        let payload = Payload(name: "말차 \"라떼\"", count: 3, tags: ["a", "b"])
        let result = try await HTTPBin.client().send(TestEndpoint(path: "/anything", method: .post, body: .json(payload)),
                                                 decoding: .json(JSONEcho.self))
        #expect(result.value?.json == payload)
    }

    @Test func form_IsEchoed() async throws {
        let body = FormBody([QueryItem("name", "Jörg K"), QueryItem("q", "a+b&c=d")])
        let echo = try #require(try await HTTPBin.client().send(TestEndpoint(path: "/anything", method: .post, body: body),
                                                            decoding: .json(Echo.self)).value)
        #expect(echo.form == ["name": "Jörg K", "q": "a+b&c=d"])
        #expect(echo.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func multipart_IsEchoed() async throws {
        let body = MultipartBody([.text(name: "note", value: "안녕 hi"),
                                  .file(name: "upload", fileName: "notes.txt", mimeType: "text/plain", data: Data("file body".utf8))])
        let echo = try #require(try await HTTPBin.client().send(TestEndpoint(path: "/anything", method: .post, body: body),
                                                            decoding: .json(Echo.self)).value)
        #expect(echo.form == ["note": "안녕 hi"])
        #expect(echo.files == ["upload": "file body"])
    }

    @Test(arguments: [HTTPMethod.get, .post, .put, .patch, .delete])
    func methods_ArriveAsSent(method: HTTPMethod) async throws {
        let echo = try #require(try await HTTPBin.client().send(TestEndpoint(path: "/anything", method: method),
                                                            decoding: .json(Echo.self)).value)
        #expect(echo.method == method.rawValue)
    }

    @Test func headers_FromTheEndpointAndInterceptors_Arrive() async throws {
        let client = try HTTPBin.client(interceptors: [HeaderInterceptor(["X-Trace": "t-1", "Accept-Language": "ko"])])
        let echo = try #require(await client.send(TestEndpoint(path: "/headers", headers: ["X-Endpoint": "e 1"]),
                                                  decoding: .json(Echo.self)).value)
        #expect(echo.headers["X-Trace"] == "t-1")
        #expect(echo.headers["Accept-Language"] == "ko")
        #expect(echo.headers["X-Endpoint"] == "e 1")
    }

    @Test func nonASCIIHeaderValues_GoOutAsUTF8Bytes_WhichServersReadAsLatin1() async throws {
        // Header values are ASCII by RFC 9110 §5.5; other bytes are opaque, and httpbin (WSGI) reads them as
        // ISO-8859-1. Percent-encode or use the body for anything else.
        let echo = try #require(try await HTTPBin.client().send(TestEndpoint(path: "/headers", headers: ["X-Name": "ü"]),
                                                                decoding: .json(Echo.self)).value)
        #expect(echo.headers["X-Name"] == "Ã¼")
    }

    @Test func bearer_IsAccepted_AndItsAbsenceIsARequestErr() async throws {
        struct Bearer: Decodable, Sendable { let authenticated: Bool; let token: String }
        let authorised = try HTTPBin.client(interceptors: [BearerTokenInterceptor { "t0k3n" }])
        let ok = await authorised.send(TestEndpoint(path: "/bearer"), decoding: .json(Bearer.self))
        #expect(ok.value?.token == "t0k3n" && ok.value?.authenticated == true)
        let anonymous = try await HTTPBin.client().send(TestEndpoint(path: "/bearer"), decoding: .json(Bearer.self))
        guard case .requestErr(401, _) = anonymous else { Issue.record("got \(anonymous)"); return }
    }

    // MARK: - Status mapping

    @Test(arguments: [
        (200, "success"), (201, "success"), (204, "success"),
        (300, "networkFail"), (304, "networkFail"),
        (400, "requestErr"), (404, "requestErr"), (418, "requestErr"), (429, "requestErr"),
        (500, "serverErr"), (502, "serverErr"), (503, "serverErr"),
    ])
    func status_MapsToItsCase(status: Int, caseName: String) async throws {
        let response = try await HTTPBin.client().response(for: TestEndpoint(path: "/status/\(status)"), decoding: .empty)
        #expect(response.result.caseName == caseName)
        #expect(response.status == status)
    }

    @Test func responseHeaders_AreReadable() async throws {
        let response = try await HTTPBin.client().response(
            for: TestEndpoint(path: "/response-headers", body: .query([QueryItem("X-Total-Count", "42")])), decoding: .empty)
        #expect(response.headers["x-total-count"] == "42")
    }

    // MARK: - Redirects

    @Test func getRedirects_AreFollowed_RelativeAndAbsolute() async throws {
        for path in ["/redirect/3", "/absolute-redirect/2", "/relative-redirect/2"] {
            let response = try await HTTPBin.client().response(for: TestEndpoint(path: path), decoding: .json(Echo.self))
            #expect(response.status == 200, "\(path)")
            #expect(response.url?.path == "/get", "\(path)")
        }
    }

    @Test(arguments: [307, 308])
    func postRedirects_307And308_KeepMethodAndBody(status: Int) async throws {
        let payload = Payload(name: "kept", count: status, tags: [])
        let endpoint = TestEndpoint(path: "/redirect-to?url=/anything&status_code=\(status)", method: .post,
                                    body: .json(payload))
        let response = try await HTTPBin.client().response(for: endpoint, decoding: .json(Echo.self))
        let echo = try #require(response.value)
        #expect(echo.method == "POST")
        #expect(echo.data == #"{"count":\#(status),"name":"kept","tags":[]}"# || echo.data?.contains("kept") == true)
        #expect(response.url?.path == "/anything")
    }

    @Test(arguments: [301, 302, 303])
    func postRedirects_301To303_BecomeGet(status: Int) async throws {
        let endpoint = TestEndpoint(path: "/redirect-to?url=/anything&status_code=\(status)", method: .post,
                                    body: .json(["a": 1]))
        let echo = try #require(try await HTTPBin.client().send(endpoint, decoding: .json(Echo.self)).value)
        #expect(echo.method == "GET")
        #expect(echo.data == "")
        #expect(echo.headers["Content-Type"] == nil)
    }

    @Test func tooManyRedirects_IsANetworkFail() async throws {
        let result = try await HTTPBin.client().send(TestEndpoint(path: "/redirect/25"))
        guard case .networkFail(let error) = result else { Issue.record("got \(result)"); return }
        #expect((error.underlying as? URLError)?.code == .httpTooManyRedirects)
    }

    // MARK: - Bodies, time and failure

    @Test func gzip_IsDecoded() async throws {
        struct Gzipped: Decodable, Sendable { let gzipped: Bool }
        let result = try await HTTPBin.client().send(TestEndpoint(path: "/gzip"), decoding: .json(Gzipped.self))
        #expect(result.value?.gzipped == true)
    }

    @Test func delay_WithinTheTimeout_Succeeds_AndPastItTimesOut() async throws {
        let ok = try await HTTPBin.client().send(TestEndpoint(path: "/delay/1", timeout: 5))
        #expect(ok.caseName == "success")
        let start = ContinuousClock.now
        let late = try await HTTPBin.client().send(TestEndpoint(path: "/delay/5", timeout: 1))
        #expect(ContinuousClock.now - start < .seconds(3))
        guard case .networkFail(let error) = late else { Issue.record("got \(late)"); return }
        #expect(error.kind == .timedOut)
    }

    @Test func cancellation_EndsAWaitingCallAtOnce() async throws {
        let client = try HTTPBin.client()
        let task = Task { await client.send(TestEndpoint(path: "/delay/10", timeout: 20)) }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        task.cancel()
        let result = await task.value
        #expect(ContinuousClock.now - start < .seconds(5))
        guard case .networkFail(let error) = result else { Issue.record("got \(result)"); return }
        #expect(error.kind == .cancelled)
    }

    @Test func retries_Against503_TryMaxAttemptsTimes() async throws {
        let client = try HTTPBin.client(retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.05, maxDelay: 0.2))
        let response = await client.response(for: TestEndpoint(path: "/status/503"), decoding: .empty)
        guard case .serverErr(503) = response.result else { Issue.record("got \(response.result)"); return }
        #expect(response.attempts == 3)
        let post = await client.response(for: TestEndpoint(path: "/status/503", method: .post), decoding: .empty)
        #expect(post.attempts == 1)
    }

    // MARK: - A 401 with a Basic challenge

    @Test func basicChallenge_IsARequestErr_AndCredentialsPass() async throws {
        // A hang would end at the 8 s deadline as timedOut; the 401 itself must come back.
        let denied = try await HTTPBin.client().send(TestEndpoint(path: "/basic-auth/user/passwd", timeout: 8))
        guard case .requestErr(401, _) = denied else { Issue.record("got \(denied)"); return }
        let credentials = Data("user:passwd".utf8).base64EncodedString()
        let allowed = try await HTTPBin.client().send(
            TestEndpoint(path: "/basic-auth/user/passwd", headers: ["Authorization": "Basic \(credentials)"]))
        #expect(allowed.caseName == "success")
    }

    @Test func basicChallenge_ThroughAPlainURLSession_StopsAtTheDeadline() async throws {
        let client = try HTTPBin.client(dispatcher: PlainURLSessionDispatcher())
        let start = ContinuousClock.now
        let result = await client.send(TestEndpoint(path: "/basic-auth/user/passwd", timeout: 2))
        #expect(ContinuousClock.now - start < .seconds(5))
        #if canImport(FoundationNetworking)
        guard case .networkFail(let error) = result else { Issue.record("got \(result)"); return }
        #expect(error.kind == .timedOut)
        #else
        #expect(result.caseName == "requestErr")
        #endif
    }
}

/// `URLSession.data(for:)` with no delegate: what FoundationNetworking does on its own.
struct PlainURLSessionDispatcher: NetworkDispatcher {
    let session = URLSession(configuration: .ephemeral)

    func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}
