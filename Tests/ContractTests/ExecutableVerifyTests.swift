import ContractModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MockServer
import Testing
import TestSupport

/// `mock-server verify --target` run as a user runs it, against a local backend: one that still matches the
/// contracts (exit 0), and one that drifted (exit 1, each drift named).
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableVerifyTests {
    /// The contracts the app is tested against.
    static let mocked = """
        {"domain": "shop", "endpoints": [
          {"id": "item", "method": "GET", "path": "/api/items/{id}", "request": {"auth": "bearer"},
           "verify": {"headers": {"Authorization": "Bearer ${SHOP_TOKEN}"}},
           "scenarios": [{"name": "success", "status": 200, "body": "items/{id}.json", "headers": {"ETag": "\\"v1\\""},
                          "expect": "success"}]},
          {"id": "list", "method": "GET", "path": "/api/items",
           "scenarios": [{"name": "success", "status": 200, "body": "list.json", "expect": "success"},
                         {"name": "reset", "fault": "connection_reset", "expect": "networkFail"}]},
          {"id": "create", "method": "POST", "path": "/api/items", "verify": {"body": {"name": "Cup"}},
           "scenarios": [{"name": "created", "status": 201, "body": "items/1.json", "expect": "success"}]}
        ]}
        """
    static let mockedFixtures = [
        ("items/1.json", #"{"id":1,"name":"Pen","price":1.5,"tags":["a"]}"#),
        ("list.json", #"{"items":[{"id":1,"name":"Pen"}],"next":null}"#),
    ]
    static let token = "tok-SECRET-verify-7"

    /// The backend: the same API, answered by this package's server (with `when` rules standing in for auth).
    static func backend(itemHeaders: String, listStatus: Int) -> String {
        """
        {"domain": "shop", "endpoints": [
          {"id": "item", "method": "GET", "path": "/api/items/{id}", "request": {"auth": "bearer"},
           "scenarios": [{"name": "success", "status": 200, "body": "item.json", "headers": \(itemHeaders),
                          "expect": "success"}]},
          {"id": "list", "method": "GET", "path": "/api/items",
           "scenarios": [{"name": "answer", "status": \(listStatus), "body": "list.json",
                          "expect": "\(listStatus < 300 ? "success" : "serverErr")"}]},
          {"id": "create", "method": "POST", "path": "/api/items",
           "scenarios": [{"name": "created", "status": 201, "body": "item.json", "expect": "success"}]}
        ]}
        """
    }

    private func run(backend: ScratchContracts, extra: [String] = []) async throws
        -> (status: Int32, output: String, error: String, server: MockServer, report: String) {
        let mocked = try ScratchContracts(contracts: [("shop.json", Self.mocked)], fixtures: Self.mockedFixtures)
        let server = try MockServer.backend(serving: backend)
        let report = try TestTemporaryFolder.folder("verify", create: true) + "/report.xml"
        let result = try await ExecutableTests.run(
            ["verify", "--target", "http://127.0.0.1:\(server.port)", "--contracts", mocked.contracts,
             "--fixtures", mocked.fixtures, "--report", "junit", report] + extra,
            environment: ["SHOP_TOKEN": Self.token])
        return (result.status, result.output, result.error, server, report)
    }

    @Test func backendThatMatches_IsVerified_AndNoWriteIsSent_AndTheTokenIsNeverShown() async throws {
        let backend = try ScratchContracts(
            contracts: [("shop.json", Self.backend(itemHeaders: #"{"ETag": "\"v7\""}"#, listStatus: 200))],
            fixtures: [("item.json", #"{"id":7,"name":"Ink","price":2,"tags":[],"stock":3}"#),
                       ("list.json", #"{"items":[{"id":2,"name":"Ink"}],"next":"p2"}"#)])
        let (status, output, error, server, report) = try await run(backend: backend)
        defer { server.stop() }
        #expect(status == 0, "\(output)\(error)")
        #expect(output.contains("item.success GET /api/items/1: verified (200)"), "\(output)")
        #expect(output.contains("note: /stock: only in the backend's answer (number)"), "\(output)")
        #expect(output.contains("create.created POST /api/items: not verified: POST is sent only with --allow-writes"))
        #expect(output.contains("list: not checked: reset"), "\(output)")
        // The backend saw GETs only, the token on the one that needs it, and nobody printed it
        let methods = Set(server.journal.entries().map(\.method.rawValue))
        #expect(methods == ["GET"], "\(methods)")
        #expect(server.journal.entries().contains { $0.target == "/api/items/1" && $0.status == 200 })
        let written = try String(contentsOfFile: report, encoding: .utf8)
        for text in [output, error, written] { #expect(!text.contains(Self.token)) }
    }

    @Test func backendThatDrifted_FailsTheRun_NamingEachDrift_InTheJUnitFileToo() async throws {
        // A type change and a removed key in the item, its ETag gone, the list a 500
        let backend = try ScratchContracts(
            contracts: [("shop.json", Self.backend(itemHeaders: "{}", listStatus: 500))],
            fixtures: [("item.json", #"{"id":7,"price":"2.00","tags":[]}"#), ("list.json", #"{"error":"down"}"#)])
        let (status, output, _, server, report) = try await run(backend: backend, extra: ["--allow-writes"])
        defer { server.stop() }
        #expect(status == 1, "\(output)")
        #expect(output.contains("item.success GET /api/items/1: DRIFT"), "\(output)")
        for drift in ["header ETag: missing", "/name: missing from the backend's answer (fixture string)",
                      "/price: fixture number, backend string", "status 500, expected 2xx (success)"] {
            #expect(output.contains(drift), "\(drift) in \(output)")
        }
        // With --allow-writes the POST went, and its answer drifted the same way as the item
        #expect(server.journal.entries().contains { $0.method == "POST" })
        #expect(output.contains("2 verified") == false && output.contains("3 drifted"), "\(output)")
        // The JUnit file parses, and its counts are the report's
        let data = try Data(contentsOf: URL(fileURLWithPath: report))
        let counter = JUnitCounter()
        let parser = XMLParser(data: data)
        parser.delegate = counter
        #expect(parser.parse(), "\(String(decoding: data, as: UTF8.self))")
        #expect(counter.testCases == 4 && counter.failures == 3 && counter.skipped == 1)
    }

    @Test func servingWithProxy_RunsTheCheckOnPost_AndKeepsTheLastReport_WithoutTheToken() async throws {
        let backend = try ScratchContracts(
            contracts: [("shop.json", Self.backend(itemHeaders: "{}", listStatus: 200))],
            fixtures: [("item.json", #"{"id":7,"price":"2.00","tags":[]}"#), ("list.json", #"{"items":[],"next":null}"#)])
        let upstream = try MockServer.backend(serving: backend)
        defer { upstream.stop() }
        let mocked = try ScratchContracts(contracts: [("shop.json", Self.mocked)], fixtures: Self.mockedFixtures)
        try await offThePool {
            let server = try RunningExecutable(["--proxy", "http://127.0.0.1:\(upstream.port)", "--log", "off",
                                                "--contracts", mocked.contracts, "--fixtures", mocked.fixtures])
            defer { _ = server.stop() }
            #expect(try verifyCall(port: server.port, "GET").status == 204, "no check has run yet")
            let body = #"{"headers": {"Authorization": "Bearer \#(Self.token)"}}"#
            let ran = try verifyCall(port: server.port, "POST", body: body)
            #expect(ran.status == 200, "\(ran.text)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(ran.body)) as? [String: Any])
            #expect(report["drifted"] as? Int == 1 && report["verified"] as? Int == 1, "\(ran.text)")
            #expect(!ran.text.contains(Self.token))
            let kept = try verifyCall(port: server.port, "GET")
            #expect(kept.status == 200 && kept.body == ran.body)
            let bad = try verifyCall(port: server.port, "POST", body: #"{"target": "http://elsewhere.example"}"#)
            #expect(bad.status == 400 && bad.text.contains("all optional"), "no other target: \(bad.text)")
        }
        try await offThePool {
            let plain = try RunningExecutable(["--log", "off", "--contracts", mocked.contracts, "--fixtures", mocked.fixtures])
            defer { _ = plain.stop() }
            let refused = try verifyCall(port: plain.port, "POST", body: "{}")
            #expect(refused.status == 409 && refused.text.contains("--proxy"), "\(refused.text)")
        }
    }

    @Test func usageErrors_ExitTwo() async throws {
        let noTarget = try await ExecutableTests.run(["verify"])
        #expect(noTarget.status == 2 && noTarget.error.contains("verify needs --target <url>"))
        let badReport = try await ExecutableTests.run(["verify", "--target", "http://127.0.0.1:9", "--report", "xml", "f"])
        #expect(badReport.status == 2 && badReport.error.contains("--report: expected junit <file> or json <file>"))
        let badHeader = try await ExecutableTests.run(["verify", "--target", "http://127.0.0.1:9", "--header", "secret"])
        #expect(badHeader.status == 2 && !badHeader.error.contains("secret"), "\(badHeader.error)")
        let mocked = try ScratchContracts(contracts: [("shop.json", Self.mocked)], fixtures: Self.mockedFixtures)
        let typo = try await ExecutableTests.run(["verify", "--target", "http://127.0.0.1:9", "--only", "itme",
                                                  "--contracts", mocked.contracts, "--fixtures", mocked.fixtures])
        #expect(typo.status == 2 && typo.error.contains("no endpoint has the id \"itme\""), "\(typo.error)")
        // Nothing checkable (the only endpoint needs a token nobody gave): a CI job must not pass on that
        let nothing = try await ExecutableTests.run(["verify", "--target", "http://127.0.0.1:9", "--only", "item",
                                                     "--contracts", mocked.contracts, "--fixtures", mocked.fixtures])
        #expect(nothing.status == 1 && nothing.error.contains("nothing was verified"), "\(nothing.output)\(nothing.error)")
    }
}

/// `GET` or `POST /__mock/verify` on a fresh connection (blocking: call it off the cooperative pool).
private func verifyCall(port: UInt16, _ method: String, body: String = "") throws -> RawResponse {
    let client = try RawClient(port: port, timeout: 30)
    client.send("\(method) /__mock/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    return try client.readResponse()
}

/// Counts what a JUnit file holds.
private final class JUnitCounter: NSObject, XMLParserDelegate, @unchecked Sendable {
    var testCases = 0, failures = 0, skipped = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "testcase": testCases += 1
        case "failure": failures += 1
        case "skipped": skipped += 1
        default: break
        }
    }
}
