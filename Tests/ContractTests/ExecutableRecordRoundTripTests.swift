import Foundation
import MockServer
import Testing
import TestSupport

/// The whole loop of `mock-server record` as a user runs it: the app talks to the recorder in front of a
/// backend (a login, then items by id, one missing), the recorder is stopped, `validate` accepts what it
/// wrote, and serving that answers every recorded request as the backend did, with no secret on disk.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableRecordRoundTripTests {
    static let secrets = ["pw-SECRET-4", "tok-SECRET-1", "ref-SECRET-2", "cookie-SECRET-3", "set-SECRET-5"]

    static let backendContract = """
        {"domain": "shop", "endpoints": [
          {"id": "login", "method": "POST", "path": "/api/v1/auth/login", "response": {"contentType": "application/json"},
           "scenarios": [{"name": "success", "status": 200, "body": "login.json",
                          "headers": {"Set-Cookie": "session=set-SECRET-5; HttpOnly"}, "expect": "success"}]},
          {"id": "item", "method": "GET", "path": "/api/v1/items/{id}", "request": {"pathParams": {"id": "integer"}},
           "response": {"contentType": "application/json"},
           "scenarios": [{"name": "success", "status": 200, "body": "items/{id}.json", "expect": "success"}]},
          {"id": "missing", "method": "GET", "path": "/api/v1/items/99", "response": {"contentType": "application/json"},
           "scenarios": [{"name": "notFound", "status": 404, "body": "missing.json", "expect": "requestErr"}]}
        ]}
        """

    /// What the app sends, in order.
    static let requests = [
        "POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip, deflate, br\r\n"
            + "Content-Type: application/json\r\nContent-Length: 45\r\n\r\n"
            + #"{"user":"kim","password":"pw-SECRET-4","n":1}"#,
        "GET /v1/items/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok-SECRET-1\r\nCookie: s=cookie-SECRET-3\r\n\r\n",
        "GET /v1/items/2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok-SECRET-1\r\n\r\n",
        "GET /v1/items/99 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok-SECRET-1\r\n\r\n",
    ]

    @Test func recordStopValidateServe_AnswersAsTheBackendDid_WithNoSecretOnDisk() async throws {
        let backendFolders = try ScratchContracts(contracts: [("shop.json", Self.backendContract)], fixtures: [
            ("login.json", #"{"access_token":"tok-SECRET-1","refresh_token":"ref-SECRET-2","user":{"name":"Kim"}}"#),
            ("items/1.json", #"{"id":1,"name":"Pen","price":1.5}"#),
            ("items/2.json", #"{"id":2,"name":"Ink","price":2}"#),
            ("missing.json", #"{"status":404,"responseMsg":"no such item"}"#),
        ])
        let backend = try MockServer.backend(serving: backendFolders)
        defer { backend.stop() }
        let recorded = NSTemporaryDirectory() + "roundtrip-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: recorded) }

        // GIVEN the app's traffic through the recorder, and what the backend answered
        let recorder = try RunningExecutable(["record", "--target", "http://127.0.0.1:\(backend.port)/api", "--log", "off",
                                              "--contracts", recorded + "/Contracts", "--fixtures", recorded + "/Fixtures"])
        let viaRecorder = try Self.requests.map { try send($0, to: recorder.port) }
        #expect(viaRecorder.map(\.status) == [200, 200, 200, 404])
        #expect(viaRecorder[0].text.contains("tok-SECRET-1"), "the app gets its token")
        // (the recorder asked for the body uncompressed, whatever the app accepts, so it could be searched)
        #expect(backend.journal.entries().first?.header("Accept-Encoding") == "identity")
        let ended = recorder.stop()
        #expect(ended.status == 0, "\(ended.errors)")
        #expect(ended.errors.contains("recording: wrote 4 exchanges"), "\(ended.errors)")

        // THEN what it wrote validates
        let validate = try await ExecutableTests.run(["validate", "--contracts", recorded + "/Contracts",
                                                               "--fixtures", recorded + "/Fixtures"])
        #expect(validate.status == 0, "\(validate.output)\(validate.error)")
        // AND the ids became a template, each with its own fixture
        let contract = try String(contentsOfFile: recorded + "/Contracts/items.json", encoding: .utf8)
        #expect(contract.contains(#""/v1/items/{id}""#), "\(contract)")
        #expect(FileManager.default.fileExists(atPath: recorded + "/Fixtures/v1/items/1.json"))
        // AND serving it answers each request with the recorded status and body, secrets redacted
        let replay = try RunningExecutable(["--contracts", recorded + "/Contracts", "--fixtures", recorded + "/Fixtures",
                                            "--log", "off"])
        defer { _ = replay.stop() }
        for (request, original) in zip(Self.requests, viaRecorder) {
            let again = try send(request, to: replay.port)
            #expect(again.status == original.status, "\(request)")
            // Secret values come back as the placeholder the files hold instead of them
            let expected = Self.secrets.reduce(original.text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
            #expect(Self.json(again.body) == Self.json(Array(expected.utf8)), "\(request): \(again.text)")
        }
        // AND no secret is in any file it wrote
        for path in FileManager.default.subpaths(atPath: recorded) ?? [] {
            guard let bytes = FileManager.default.contents(atPath: recorded + "/" + path) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) in \(path)") }
        }
    }

    @Test func loginThroughTheRecorder_KeepsTheTokensOutOfTheFixture_ButTheAppGetsThem() async throws {
        let backendFolders = try ScratchContracts(contracts: [("shop.json", Self.backendContract)], fixtures: [
            ("login.json", #"{"access_token":"tok-SECRET-1","refresh_token":"ref-SECRET-2","user":{"name":"Kim"}}"#),
            ("items/1.json", "{}"), ("items/2.json", "{}"), ("missing.json", "{}"),
        ])
        let backend = try MockServer.backend(serving: backendFolders)
        defer { backend.stop() }
        let recorded = NSTemporaryDirectory() + "login-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: recorded) }
        let recorder = try RunningExecutable(["record", "--target", "http://127.0.0.1:\(backend.port)", "--log", "off",
                                              "--contracts", recorded + "/Contracts", "--fixtures", recorded + "/Fixtures"])
        let login = try send(Self.requests[0].replacingOccurrences(of: "/v1/auth/login", with: "/api/v1/auth/login"),
                             to: recorder.port)
        // The app itself gets the real tokens and cookie: only the files are kept clean
        #expect(login.status == 200 && login.text.contains("tok-SECRET-1"))
        #expect(login.header("Set-Cookie")?.contains("set-SECRET-5") == true)
        let ended = recorder.stop()
        #expect(ended.status == 0, "\(ended.errors)")
        let files = FileManager.default.subpaths(atPath: recorded)?.filter { !$0.hasPrefix(".") } ?? []
        #expect(files.count >= 2, "\(files)")
        for path in files {
            let text = (try? String(contentsOfFile: recorded + "/" + path, encoding: .utf8)) ?? ""
            for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) in \(path)") }
        }
    }

    private static func json(_ bytes: [UInt8]) -> NSDictionary? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? NSDictionary
    }
}

/// One request on a fresh connection, and its response.
private func send(_ request: String, to port: UInt16) throws -> RawResponse {
    let client = try RawClient(port: port, timeout: 10)
    client.send(request)
    return try client.readResponse()
}
