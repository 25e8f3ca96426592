import Recorder
import Testing

/// Secrets never reach disk: not in contracts, not in fixtures, whatever carried them.
@Suite(.timeLimit(.minutes(2))) struct RecordingRedactionTests {
    static let secrets = ["hunter2-pass", "eyJ.access.tok", "rt-refresh-9", "sid=cookie-v4l", "k3y-in-query", "tenant-s3cr3t"]

    /// Logging in, then using the token: the password in the body, tokens and a cookie in the answer,
    /// the bearer token and a cookie on the next request, an API key in a query, a custom header.
    static let login: [RecordedExchange] = [
        .make("/auth/login", method: "POST", requestHeaders: [.init(name: "Content-Type", value: "application/json")],
              requestBody: #"{"user":"ann","password":"hunter2-pass"}"#,
              responseHeaders: [.init(name: "Set-Cookie", value: "sid=cookie-v4l; HttpOnly")],
              body: #"{"access_token":"eyJ.access.tok","Refresh_Token":"rt-refresh-9","user":{"id":7,"api_key":{"v":"x"}}}"#),
        .make("/v1/me", query: "api_key=k3y-in-query",
              requestHeaders: [.init(name: "Authorization", value: "Bearer eyJ.access.tok"),
                               .init(name: "Cookie", value: "sid=cookie-v4l"), .init(name: "X-Tenant", value: "tenant-s3cr3t")],
              responseHeaders: [.init(name: "X-Tenant", value: "tenant-s3cr3t")],
              body: #"{"id":7,"name":"Ann","sessions":[{"id_token":"rt-refresh-9"}]}"#),
        .make("/oauth/token", method: "POST", requestHeaders: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
              requestBody: "grant_type=password&password=hunter2-pass",
              contentType: "application/x-www-form-urlencoded", body: "access_token=eyJ.access.tok&token_type=bearer"),
    ]

    @Test func loginFlow_LeavesNoSecretValueInAnyFile() throws {
        // GIVEN
        let folders = try RecordingFolders()
        // WHEN
        _ = try folders.writer(redaction: .init(extraHeaders: ["X-Tenant"])).write(Self.login)
        // THEN
        folders.validate()
        let files = folders.files()
        #expect(files.count >= 5)
        for (name, bytes) in files {
            for secret in Self.secrets {
                #expect(!bytes.windows(ofCount: secret.utf8.count).contains { $0.elementsEqual(secret.utf8) },
                        "\(secret) in \(name)")
            }
        }
        #expect(folders.text("Fixtures/auth/login/post-success.json").contains(#""access_token": "<redacted>""#))
    }

    @Test func secretKeys_InAnySpelling_AndJSONUnderAnotherMediaType_AreRedacted() throws {
        let folders = try RecordingFolders()
        let body = #"{"accessToken":"S1-camel","refreshToken":"S2-camel","apiKey":"S3-camel","client_secret":"S4-client","#
            + #""token":"S5-plain","X-Api-Key":"S6-dash","csrfToken":"S7-csrf","name":"visible"}"#
        _ = try folders.writer().write([
            .make("/v1/session", body: body),
            .make("/v1/text", contentType: "text/plain", body: #"{"session":{"accessToken":"S8-text"}}"#),
        ])
        folders.validate()
        for (name, bytes) in folders.files() {
            let text = String(decoding: bytes, as: UTF8.self)
            for secret in ["S1-camel", "S2-camel", "S3-camel", "S4-client", "S5-plain", "S6-dash", "S7-csrf", "S8-text"] {
                #expect(!text.contains(secret), "\(secret) in \(name)")
            }
        }
        #expect(folders.files().values.contains { String(decoding: $0, as: UTF8.self).contains("visible") })
    }

    @Test func compressedBodies_AreNotRecorded_AndSaySo() throws {
        let folders = try RecordingFolders()
        let summary = try folders.writer().write([
            .make("/v1/zipped", responseHeaders: [.init(name: "Content-Encoding", value: "gzip")], body: "\u{1f}\u{8b}…"),
            .make("/v1/plain", responseHeaders: [.init(name: "Content-Encoding", value: "identity")], body: "{}"),
        ])
        #expect(summary.endpoints == 1)
        #expect(summary.skipped.count == 1 && summary.skipped[0].contains("GET /v1/zipped: the body came gzip-encoded"),
                "\(summary.skipped)")
    }

    @Test func extraKeys_AreRedactedToo() throws {
        let folders = try RecordingFolders()
        _ = try folders.writer(redaction: .init(extraKeys: ["PIN"])).write([.make("/v1/card", body: #"{"pin":"4321"}"#)])
        #expect(folders.text("Fixtures/v1/card/get-success.json") == "{\n  \"pin\": \"<redacted>\"\n}\n")
    }

    @Test func bearerRequests_DeclareBearerAuth_WithoutTheToken() throws {
        let folders = try RecordingFolders()
        _ = try folders.writer().write(Self.login)
        let contracts = try #require(folders.validate())
        #expect(contracts.endpoints.first { $0.path.description == "/v1/me" }?.request.bearerAuth == true)
        #expect(try Replay.answers(Self.login, folders: folders).map(\.status) == [200, 200, 200])
    }
}

extension Array where Element == UInt8 {
    /// Every run of `count` consecutive bytes.
    func windows(ofCount count: Int) -> [ArraySlice<UInt8>] {
        guard count > 0, count <= self.count else { return [] }
        return (0...(self.count - count)).map { self[$0..<($0 + count)] }
    }
}
