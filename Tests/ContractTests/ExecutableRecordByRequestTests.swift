import Foundation
import MockServer
import Testing
import TestSupport

/// A user's own small backend recorded with `mock-server record` and served again by the real executable: a list
/// filtered by genre and paged, books by ISBN (one missing), a login that returns a token, orders that need it, and
/// a slow endpoint. Replayed in another order, each request in a fresh session, every answer is the backend's.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableRecordByRequestTests {
    static let secrets = ["pw-SECRET-1", "tok-SECRET-2"]

    static let backendContract = """
        {"domain": "books", "endpoints": [
          {"id": "list", "method": "GET", "path": "/v2/books",
           "request": {"query": {"genre": "string?", "page": "integer?"}},
           "scenarios": [
             {"name": "techOne", "status": 200, "body": "tech-1.json", "expect": "success"},
             {"name": "techTwo", "status": 200, "body": "tech-2.json", "expect": "success",
              "when": {"query": {"genre": "tech", "page": "2"}}},
             {"name": "fantasy", "status": 200, "body": "fantasy-1.json", "expect": "success",
              "when": {"query": {"genre": "fantasy"}}}]},
          {"id": "book", "method": "GET", "path": "/v2/books/{isbn}", "request": {"pathParams": {"isbn": "string"}},
           "scenarios": [{"name": "success", "status": 200, "body": "books/{isbn}.json", "expect": "success"}]},
          {"id": "login", "method": "POST", "path": "/v2/login",
           "scenarios": [{"name": "success", "status": 200, "body": "login.json", "expect": "success"}]},
          {"id": "order", "method": "POST", "path": "/v2/orders", "request": {"auth": "bearer"},
           "scenarios": [{"name": "created", "status": 201, "body": "created.json", "expect": "success"}]},
          {"id": "slow", "method": "GET", "path": "/v2/slow",
           "scenarios": [{"name": "success", "status": 200, "body": "slow.json", "delayMs": 400, "expect": "success"}]}
        ]}
        """

    static let fixtures = [
        ("tech-1.json", #"{"books":["SICP"],"page":1}"#), ("tech-2.json", #"{"books":["TAOCP"],"page":2}"#),
        ("fantasy-1.json", #"{"books":["Earthsea"],"page":1}"#),
        ("books/080442957X.json", #"{"title":"A Wizard of Earthsea"}"#),
        ("books/9780804429573.json", #"{"title":"The Tombs of Atuan"}"#),
        ("login.json", #"{"token":"tok-SECRET-2","user":"kim"}"#), ("created.json", #"{"ordered":true}"#),
        ("slow.json", #"{"slow":true}"#),
    ]

    static func get(_ target: String) -> String { "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }

    static func post(_ target: String, _ body: String, token: String? = nil) -> String {
        "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// What the app sends, in the order recorded.
    static let requests = [
        get("/v2/books?genre=tech&page=1"), get("/v2/books?genre=fantasy&page=1"), get("/v2/books?genre=tech&page=2"),
        get("/v2/books/080442957X"), get("/v2/books/9780804429573"), get("/v2/books/0000000000"),
        post("/v2/login", #"{"user":"kim","password":"pw-SECRET-1"}"#),
        post("/v2/orders", #"{"isbn":"080442957X"}"#, token: "tok-SECRET-2"),
        post("/v2/orders", #"{"isbn":"080442957X"}"#),
        post("/v2/orders", #"{"isbn":"080442957X"}"#, token: "tok-SECRET-2"),
        get("/v2/slow"),
    ]

    @Test func recordedAPI_AnswersEachRequestByWhatItSays_InAnyOrder_InFreshSessions() async throws {
        let backendFolders = try ScratchContracts(contracts: [("books.json", Self.backendContract)], fixtures: Self.fixtures)
        let backend = try MockServer.backend(serving: backendFolders)
        defer { backend.stop() }
        let recorded = try TestTemporaryFolder.folder("by-request", create: false)

        // GIVEN the app's traffic through the recorder
        let (original, report) = try await offThePool { () throws -> ([Answer], String) in
            let recorder = try RunningExecutable(["record", "--target", "http://127.0.0.1:\(backend.port)", "--log", "off",
                                                  "--contracts", recorded + "/Contracts", "--fixtures", recorded + "/Fixtures"])
            let answers = try Self.requests.map { Answer(try roundTrip($0, port: recorder.port)) }
            let ended = recorder.stop()
            #expect(ended.status == 0, "\(ended.errors)")
            return (answers, ended.errors)
        }
        #expect(original.map(\.status) == [200, 200, 200, 200, 200, 404, 200, 201, 401, 201, 200])
        // The flush report says what was decided, per endpoint, and never a secret
        #expect(report.contains("getV2Books GET /v2/books: 2 when rules"), "\(report)")
        #expect(report.contains("postV2Orders POST /v2/orders: 1 when rule; auth bearer"), "\(report)")
        #expect(report.contains("getV2BooksById GET /v2/books/{id}: ids {id}; 1 when rule"), "\(report)")
        #expect(!Self.secrets.contains { report.contains($0) })

        // THEN it validates, with ISBNs as one string parameter and the slow endpoint's latency
        let validate = try await ExecutableTests.run(["validate", "--contracts", recorded + "/Contracts",
                                                      "--fixtures", recorded + "/Fixtures"])
        #expect(validate.status == 0, "\(validate.output)\(validate.error)")
        let contract = try String(contentsOfFile: recorded + "/Contracts/books.json", encoding: .utf8)
        #expect(contract.contains(#""/v2/books/{id}""#) && contract.contains(#""id": "string""#), "\(contract)")
        #expect(!contract.contains("\"sequence\""), "no request was answered twice: \(contract)")

        // AND served again, each request in another order and a fresh session gets the backend's answer
        try await offThePool {
            let replay = try RunningExecutable(["--contracts", recorded + "/Contracts", "--fixtures", recorded + "/Fixtures",
                                                "--log", "off"])
            defer { _ = replay.stop() }
            let order = Array(Self.requests.indices.reversed())
            for index in order {
                let session = "X-Mock-Session: fresh-\(index)\r\n"
                let request = Self.requests[index].replacingOccurrences(of: "Host: 127.0.0.1\r\n",
                                                                        with: "Host: 127.0.0.1\r\n" + session)
                let started = Date()
                let again = try roundTrip(request, port: replay.port)
                let expected = Self.secrets.reduce(original[index].text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
                #expect(again.status == original[index].status, "\(request)")
                #expect(json(again.body) == json(Array(expected.utf8)), "\(request): \(again.text)")
                if request.hasPrefix("GET /v2/slow") {
                    #expect(Date().timeIntervalSince(started) > 0.3, "the recorded latency is kept")
                }
            }
        }
        // AND no secret reached any file
        for path in FileManager.default.subpaths(atPath: recorded) ?? [] {
            let text = (try? String(contentsOfFile: recorded + "/" + path, encoding: .utf8)) ?? ""
            for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) in \(path)") }
        }
    }

    @Test func proxyFallback_SendsOnWhatAnEndpointMatchesButCannotAnswer_AndTheJournalSaysWhy() async throws {
        let backendFolders = try ScratchContracts(contracts: [("live.json", """
            {"domain": "live", "endpoints": [
              {"id": "item", "method": "GET", "path": "/api/v1/items/{id}",
               "scenarios": [{"name": "live", "status": 200, "body": "live.json", "expect": "success"}]},
              {"id": "drop", "method": "DELETE", "path": "/api/v1/items/{id}",
               "scenarios": [{"name": "gone", "status": 204, "expect": "success"}]},
              {"id": "search", "method": "GET", "path": "/api/v1/search",
               "scenarios": [{"name": "live", "status": 200, "body": "live.json", "expect": "success"}]}]}
            """)], fixtures: [("live.json", #"{"live":true}"#)])
        let backend = try MockServer.backend(serving: backendFolders)
        defer { backend.stop() }
        let mocked = try ScratchContracts(contracts: [("items.json", """
            {"domain": "items", "endpoints": [
              {"id": "item", "method": "GET", "path": "/v1/items/{id}", "request": {"pathParams": {"id": "integer"}},
               "scenarios": [{"name": "success", "status": 200, "body": "items/{id}.json", "expect": "success"}]},
              {"id": "search", "method": "GET", "path": "/v1/search",
               "scenarios": [{"name": "pen", "status": 200, "body": "items/1.json", "expect": "success",
                              "when": {"query": {"q": "pen"}}}]}]}
            """)], fixtures: [("items/1.json", #"{"mocked":1}"#)])
        let base = ["--proxy", "http://127.0.0.1:\(backend.port)/api", "--log", "off",
                    "--contracts", mocked.contracts, "--fixtures", mocked.fixtures]
        try await offThePool {
            let server = try RunningExecutable(base + ["--proxy-fallback"])
            defer { _ = server.stop() }
            #expect(try roundTrip(Self.get("/v1/items/1"), port: server.port).text == #"{"mocked":1}"#)
            // No fixture for 2, DELETE not in the contract, no when holding for ink: each goes to the backend
            #expect(try roundTrip(Self.get("/v1/items/2"), port: server.port).text == #"{"live":true}"#)
            #expect(try roundTrip("DELETE /v1/items/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: server.port).status == 204)
            #expect(try roundTrip(Self.get("/v1/search?q=ink"), port: server.port).text == #"{"live":true}"#)
            #expect(try roundTrip(Self.get("/v1/search?q=pen"), port: server.port).text == #"{"mocked":1}"#)
            let journal = try roundTrip(Self.get("/__mock/journal"), port: server.port)
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(journal.body)) as? [[String: Any]])
            let relayed = entries.filter { $0["proxied"] as? Bool == true }
            #expect(relayed.count == 3)
            let reasons = relayed.compactMap { $0["reason"] as? String }
            #expect(reasons.contains { $0.contains("no fixture") }, "\(reasons)")
            #expect(reasons.contains { $0.contains("no endpoint takes DELETE /v1/items/1") }, "\(reasons)")
            #expect(reasons.contains { $0.contains("query.q") }, "\(reasons)")
        }
        try await offThePool {
            // Without it, the mock answers for itself
            let server = try RunningExecutable(base)
            defer { _ = server.stop() }
            #expect(try roundTrip(Self.get("/v1/items/2"), port: server.port).status == 404)
            #expect(try roundTrip("DELETE /v1/items/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: server.port).status == 405)
        }
        let alone = try await ExecutableTests.run(["--proxy-fallback", "--port", "0"])
        #expect(alone.status == 2 && alone.error.contains("--proxy-fallback needs --proxy"), "\(alone.error)")
    }
}

/// One request on a fresh connection, and its response (blocking: call it off the cooperative pool).
private func roundTrip(_ request: String, port: UInt16) throws -> RawResponse {
    let client = try RawClient(port: port, timeout: 10)
    client.send(request)
    return try client.readResponse()
}

/// What a response said, kept across threads.
private struct Answer: Sendable {
    let status: Int
    let body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }

    init(_ response: RawResponse) {
        status = response.status
        body = response.body
    }
}

private func json(_ bytes: [UInt8]) -> NSDictionary? {
    (try? JSONSerialization.jsonObject(with: Data(bytes))) as? NSDictionary
}
