import Foundation
@testable import MockServer
import TestSupport
import Testing

/// What the journal keeps of a request body, and queries that fail loudly instead of matching nothing.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct JournalQueryTests {
    private func post(_ client: RawClient, _ path: String, contentType: String, body: [UInt8]) throws -> RawResponse {
        client.send(Array("POST \(path) HTTP/1.1\r\nHost: a\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
                    + body)
        return try client.readResponse()
    }

    /// The dashboard shows how each request was answered: the response's header fields, the bytes sent and
    /// the time it took, filled in once the reply went to the socket (before the client can read it).
    @Test func entry_KeepsTheResponseHeaders_BytesAndDuration() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let response = try client.get("/healthChecker", headers: ["X-Mock-Scenario": "serverErr"])
            let entry = try #require(server.journal.entries().last)
            #expect(entry.status == 503)
            #expect(entry.responseHeaders.contains(["X-Mock-Scenario", "serverErr"]))
            #expect(entry.responseHeaders.contains(["Content-Length", String(response.body.count)]))
            #expect(entry.responseHeaders.contains { $0.first == "Content-Type" })
            #expect((entry.bytesSent ?? 0) > response.body.count)
            #expect((entry.durationMs ?? -1) >= 0)
            let listed = try client.get("/__mock/journal?limit=1")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.body)) as? [[String: Any]]).first
            #expect((object?["responseHeaders"] as? [[String]])?.contains(["X-Mock-Scenario", "serverErr"]) == true)
            #expect(object?["bytesSent"] as? Int == entry.bytesSent)
            // A fault that sends no head has no response headers, but a duration.
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: malformed\r\n\r\n")
            _ = client.readToEnd()
            try await waitUntil { server.journal.entries().last?.durationMs != nil }
            #expect(server.journal.entries().last?.responseHeaders == [])
        }
    }

    @Test func jsonBody_IsKept_WithSecretFieldsRedacted() async throws {
        try await withServer { server in
            let body = #"{"user":"ana","password":"hunter2","nested":{"refresh_token":"abc"},"tokens":[1]}"#
            _ = try post(RawClient(port: server.port), "/login", contentType: "application/json", body: Array(body.utf8))
            let entry = try #require(server.journal.entries().last)
            let kept = try JSONSerialization.jsonObject(with: Data(entry.body)) as? [String: Any]
            #expect(kept?["user"] as? String == "ana")
            #expect(kept?["password"] as? String == "<redacted, 7 bytes>")
            #expect((kept?["nested"] as? [String: Any])?["refresh_token"] as? String == "<redacted, 3 bytes>")
            #expect((kept?["tokens"] as? [Int]) == [1], "only string values are secrets")
            #expect(entry.bodySize == body.utf8.count && !entry.bodyTruncated)
        }
    }

    @Test func formBody_IsKept_WithSecretFieldsRedacted_AndAJSONBodyWithoutSecretsVerbatim() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            _ = try post(client, "/login", contentType: "application/x-www-form-urlencoded",
                         body: Array("user=ana&api_key=s%20cret&x=1".utf8))
            #expect(server.journal.entries().last?.bodyText == "user=ana&api_key=<redacted, 6 bytes>&x=1")
            let plain = #"{ "b": 1,   "a": "spaces kept" }"#
            _ = try post(client, "/login", contentType: "application/json", body: Array(plain.utf8))
            #expect(server.journal.entries().last?.bodyText == plain)
        }
    }

    @Test func journalSecrets_KeepsBodiesAsSent() async throws {
        try await withServer(configure: { $0.journalSecrets = true }) { server in
            let body = #"{"password":"hunter2"}"#
            _ = try post(RawClient(port: server.port), "/login", contentType: "application/json", body: Array(body.utf8))
            #expect(server.journal.entries().last?.bodyText == body)
        }
    }

    @Test func largeAndBinaryBodies_AreCapped_AndEncoded() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            _ = try post(client, "/upload", contentType: "text/plain", body: Array(repeating: UInt8(ascii: "x"), count: 70_000))
            let large = try #require(server.journal.entries().last)
            #expect(large.body.count == 65_536 && large.bodyTruncated && large.bodySize == 70_000)
            _ = try post(client, "/upload", contentType: "application/octet-stream", body: [0xFF, 0x00, 0x01])
            let response = try client.get("/__mock/journal?limit=1")
            #expect(response.text.contains(#""bodyBase64":"/wAB""#), "\(response.text)")
            let decoded = try JSONDecoder().decode([JournalEntry].self, from: Data(response.body))
            #expect(decoded.first?.body == [0xFF, 0x00, 0x01])
        }
    }

    @Test func longTextBody_IsCutBetweenCharacters_AndStaysText() async throws {
        try await withServer { server in
            // "é" is two bytes: 65,535 bytes of "a", then "é" straddles the 64 KiB limit.
            let body = String(repeating: "a", count: 65_535) + "é" + String(repeating: "b", count: 100)
            _ = try post(RawClient(port: server.port), "/upload", contentType: "text/plain", body: Array(body.utf8))
            let entry = try #require(server.journal.entries().last)
            #expect(entry.bodyTruncated && entry.body.count == 65_535)
            #expect(entry.bodyText == String(repeating: "a", count: 65_535))
        }
    }

    @Test(arguments: [
        ("/__mock/journal?limit=abc", #"limit must be a whole number of 1 or more, not \"abc\""#),
        ("/__mock/journal?limit=0", "limit must be a whole number of 1 or more"),
        ("/__mock/journal?endpoint=prodcutList", "no endpoint has the id \\\"prodcutList\\\"; known: healthCheck"),
    ])
    func badJournalFilters_Are400_WithAMessage(target: String, message: String) async throws {
        try await withServer { server in
            let response = try RawClient(port: server.port).get(target)
            #expect(response.status == 400)
            #expect(response.text.contains(message), "\(response.text)")
        }
    }

    @Test func swiftQuery_FiltersAndFailsLikeTheAdminAPI() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            for path in ["/healthChecker", "/api/products/1", "/healthChecker"] { _ = try client.get(path) }
            #expect(try server.journalEntries(JournalQuery(endpoint: "healthCheck")).count == 2)
            #expect(try server.journalEntries(JournalQuery(limit: 1)).map(\.endpoint) == ["healthCheck"])
            #expect(throws: JournalQuery.Problem.self) { try server.journalEntries(JournalQuery(endpoint: "typo")) }
            #expect(throws: JournalQuery.Problem.badLimit("0")) { try server.journalEntries(JournalQuery(limit: 0)) }
        }
    }
}
