import Foundation
@testable import HTTPCore
@testable import MockServer
import Testing
import TestSupport

/// HTTP details a browser, URLCache or a person with `nc` runs into, over real sockets.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct SafeDefaultsTests {
    @Test func mockResponses_AreNotStoredByCaches() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            #expect(try client.get("/healthChecker").header("Cache-Control") == "no-store")
            #expect(try client.get("/nowhere").header("Cache-Control") == "no-store")
        }
    }

    @Test func options_OnAKnownPath_Is204WithAllow_AndAsteriskListsTheServersMethods() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("OPTIONS /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n")
            let path = try client.readResponse()
            #expect(path.status == 204 && path.header("Allow") == "GET, HEAD, OPTIONS")
            client.send("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n")
            let all = try client.readResponse()
            #expect(all.status == 204)
            let methods = Set((all.header("Allow") ?? "").components(separatedBy: ", "))
            #expect(methods.isSuperset(of: ["GET", "POST", "PATCH", "HEAD", "OPTIONS"]))
        }
    }

    @Test func head_WithTruncatedBody_SendsNoBodyBytes_AndNamesTheScenario() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("HEAD /api/products/1 HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: truncated\r\n\r\n")
            let (bytes, end) = client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(end == .closed)
            #expect(text.hasSuffix("\r\n\r\n"), "no body bytes after the head: \(text.debugDescription)")
            #expect(text.contains("X-Mock-Endpoint: productDetail\r\n") && text.contains("X-Mock-Scenario: truncated\r\n"))
            // The head announces what a GET would.
            let get = try RawClient(port: server.port)
            get.send("GET /api/products/1 HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: truncated\r\n\r\n")
            let getText = String(decoding: get.readToEnd().bytes, as: UTF8.self)
            let length = { (head: String) in head.components(separatedBy: "\r\n").first { $0.hasPrefix("Content-Length:") } }
            #expect(length(text) != nil && length(text) == length(getText))
        }
    }

    @Test func missingPerIDFixture_Is404_NamingEndpointScenarioAndReason() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let response = try client.get("/api/products/999")
            #expect(response.status == 404)
            #expect(response.header("X-Mock-Endpoint") == "productDetail" && response.header("X-Mock-Scenario") == "success")
            let entry = try #require(server.journal.entries().last)
            #expect(entry.reason == "fixture missing" && entry.scenario == "success")
        }
    }

    @Test func contractViolation_NamesTheScenarioThatWouldHavePlayed() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let response = try client.get("/api/products?page_no=1", headers: ["X-Mock-Scenario": "serverErr"])
            #expect(response.status == 400 && response.header("X-Mock-Scenario") == "serverErr")
            #expect(server.journal.entries().last?.scenario == "serverErr")
        }
    }

    @Test func requestsRejectedBeforeRouting_AreJournaledWithTheReason() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /healthChecker HTTP/1.1\nHost: a\n\n")
            #expect(try client.readResponse().status == 400)
            let entry = try #require(server.journal.entries().last)
            #expect(entry.status == 400 && entry.method == "-" && entry.reason?.contains("bare LF") == true)
        }
    }
}

/// Fixtures edited away or linked outside while the server runs.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct FixtureSafetyTests {
    private func copyOfBundledFixtures() throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.copyItem(atPath: Repository.fixtures, toPath: copy.path)
        return copy
    }

    @Test func fixtureDeletedWhileRunning_Is404_JournaledAsMissing() async throws {
        let fixtures = try copyOfBundledFixtures()
        defer { try? FileManager.default.removeItem(at: fixtures) }
        try await withServer(fixtures: fixtures.path) { server in
            let client = try RawClient(port: server.port)
            #expect(try client.get("/healthChecker").status == 200)
            try FileManager.default.removeItem(at: fixtures.appendingPathComponent("health/ok.txt"))
            try await waitUntil { (try? RawClient(port: server.port).get("/healthChecker").status) == 404 }
            #expect(server.journal.entries().last?.reason == "fixture missing")
        }
    }

    @Test func fixtureLinkedOutsideWhileRunning_IsNeverServed() async throws {
        let fixtures = try copyOfBundledFixtures()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString).json")
        defer {
            try? FileManager.default.removeItem(at: fixtures)
            try? FileManager.default.removeItem(at: outside)
        }
        try Data(#"{"secret":true}"#.utf8).write(to: outside)
        try await withServer(fixtures: fixtures.path) { server in
            let client = try RawClient(port: server.port)
            let target = fixtures.appendingPathComponent("products/77.json")
            try FileManager.default.createSymbolicLink(at: target, withDestinationURL: outside)
            let response = try client.get("/api/products/77")
            #expect(response.status == 404 && !response.text.contains("secret"))
            let reason = try #require(server.journal.entries().last?.reason)
            #expect(reason.contains("outside the fixtures folder") && reason.contains(outside.lastPathComponent))
        }
    }
}

/// `--cors` for a web front-end on another origin; never for the admin API.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct CORSTests {
    @Test func preflight_AndResponses_CarryCORSHeaders_ForAllowedOrigins() async throws {
        try await withServer(configure: { $0.cors = .origins(["http://localhost:3000"]) }) { server in
            let client = try RawClient(port: server.port)
            client.send("OPTIONS /api/v1/question/press-for-answer HTTP/1.1\r\nHost: a\r\nOrigin: http://localhost:3000\r\n"
                        + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: authorization, content-type\r\n\r\n")
            let preflight = try client.readResponse()
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "http://localhost:3000")
            #expect(preflight.header("Access-Control-Allow-Methods") == "POST")
            #expect(preflight.header("Access-Control-Allow-Headers") == "authorization, content-type")
            #expect(preflight.header("Access-Control-Max-Age") == "600")

            let response = try client.get("/healthChecker", headers: ["Origin": "http://localhost:3000"])
            #expect(response.header("Access-Control-Allow-Origin") == "http://localhost:3000")
            #expect(response.header("Access-Control-Expose-Headers") == "X-Mock-Endpoint, X-Mock-Scenario, Retry-After, "
                + "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset")

            let other = try client.get("/healthChecker", headers: ["Origin": "http://evil.example"])
            #expect(other.status == 200 && other.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func adminAPI_AndServersWithoutCORS_SendNoCORSHeaders() async throws {
        try await withServer(configure: { $0.cors = .anyOrigin }) { server in
            let client = try RawClient(port: server.port)
            let admin = try client.get("/__mock/health", headers: ["Origin": "http://localhost:3000"])
            #expect(admin.status == 403 && admin.header("Access-Control-Allow-Origin") == nil)
        }
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let response = try client.get("/healthChecker", headers: ["Origin": "http://localhost:3000"])
            #expect(response.header("Access-Control-Allow-Origin") == nil)
        }
    }
}
