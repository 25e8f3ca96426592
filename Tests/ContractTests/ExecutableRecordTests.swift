#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPCore
import MockServer
import Testing
import TestSupport

/// `mock-server record --target` and `mock-server --proxy`, run as the real executable in front of a backend on
/// this machine: this package's own server in-process, or a canned one.
@Suite(.timeLimit(.minutes(2)))
struct ExecutableRecordTests {
    // MARK: - Relaying

    @Test func record_RelaysTheResponseUnchanged_AddsVia_AndSetsHostAndBasePath() async throws {
        try await withBackend { backend in
            try await offThePool {
                let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", backend.url + "/api", "--log", "off"])
                defer { _ = recorder.stop() }
                // WHEN a client asks the recorder, naming a hop-by-hop field of its own
                let response = try exchange(port: recorder.port, "GET /v1/items?page=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Connection: keep-alive, X-Hop\r\nX-Hop: secret\r\nX-Client: c\r\n\r\n")
                // THEN the backend's answer comes back, end-to-end fields and body as sent, with Via added
                #expect(response.status == 200)
                #expect(response.text == Self.itemsBody)
                #expect(response.header("X-End") == "kept" && response.header("X-Mock-Scenario") == "success")
                #expect(response.header("Via") == "1.1 mock-server")
                // AND the backend saw its own Host, the joined path, the client's end-to-end fields only, and Via
                let seen = try #require(backend.journal.entries().last)
                #expect(seen.target == "/api/v1/items?page=2")
                #expect(seen.header("Host") == "127.0.0.1:\(backend.port)")
                #expect(seen.header("X-Client") == "c" && seen.header("X-Hop") == nil)
                #expect(seen.header("Via") == "1.1 mock-server")
            }
        }
    }

    @Test func record_DropsHopByHopResponseFields_AndDecodesAChunkedBody() async throws {
        let backend = try CannedServer(response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=5\r\n"
            + "Connection: X-Hop\r\nX-Hop: 1\r\nX-End: yes\r\nVia: 1.0 origin\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
        defer { backend.stop() }
        try await offThePool {
            let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", "http://127.0.0.1:\(backend.port)", "--log", "off"])
            defer { _ = recorder.stop() }
            let response = try exchange(port: recorder.port, "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(response.text == "hello world")
            #expect(response.header("X-End") == "yes")
            for name in ["Keep-Alive", "X-Hop", "Transfer-Encoding"] { #expect(response.header(name) == nil, "\(name)") }
            #expect(response.header("Via") == "1.0 origin, 1.1 mock-server")
        }
    }

    @Test func record_HeadRequest_AnnouncesTheBackendsLength_WithoutABody() async throws {
        let backend = try CannedServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 4000\r\nX-End: yes\r\n\r\n")
        defer { backend.stop() }
        try await offThePool {
            let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", "http://127.0.0.1:\(backend.port)", "--log", "off"])
            defer { _ = recorder.stop() }
            let client = try RawClient(port: recorder.port, timeout: 10)
            client.send("HEAD /file HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /next HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            var bytes: [UInt8] = []
            while RawResponse(parsing: bytes, bodyless: true) == nil, let more = client.readSome() { bytes += more }
            let head = try #require(RawResponse(parsing: bytes, bodyless: true))
            #expect(head.status == 200 && head.header("Content-Length") == "4000" && head.header("X-End") == "yes")
            #expect(head.body.isEmpty)
        }
    }

    // MARK: - Recording

    @Test func record_FlushAnswersWithTheAdminRules_AndSIGTERMExitsZeroPromptly() async throws {
        try await withBackend { backend in
            try await offThePool {
                let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", backend.url + "/api", "--log", "off"])
                _ = try exchange(port: recorder.port, "GET /v1/items HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                // WHEN the recording is flushed over HTTP
                let flush = try exchange(port: recorder.port, "POST /__mock/record/flush HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Length: 0\r\n\r\n")
                #expect(flush.status == 200)
                let body = try #require(try JSONSerialization.jsonObject(with: Data(flush.body)) as? [String: Any])
                #expect(body["flushed"] as? Int == 1)
                // AND a page elsewhere cannot flush it (the admin API's DNS-rebinding rule)
                let foreign = try exchange(port: recorder.port, "POST /__mock/record/flush HTTP/1.1\r\n"
                    + "Host: evil.example\r\nContent-Length: 0\r\n\r\n")
                #expect(foreign.status == 403)
                // THEN SIGTERM writes it again and the process exits 0, at once
                let started = Date()
                let ended = recorder.stop()
                #expect(ended.status == 0 && ended.reason == .exit)
                #expect(Date().timeIntervalSince(started) < 5)
                #expect(ended.errors.contains("recording: wrote 1 exchange"), "\(ended.errors)")
            }
        }
    }

    @Test func pageOnAnotherHost_IsNotRelayed_ByTheRecorderOrTheProxy() async throws {
        // A DNS-rebinding page reaches 127.0.0.1 under its own name: through a proxy it could read a backend that
        // only this machine can reach.
        try await withBackend { backend in
            try await offThePool {
                let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", backend.url + "/api",
                                                                                 "--log", "off"])
                defer { _ = recorder.stop() }
                let proxy = try RunningExecutable(["--proxy", backend.url + "/api", "--log", "off",
                                                   "--contracts", ContractCatalog.contractsDirectory,
                                                   "--fixtures", ContractCatalog.fixturesDirectory])
                defer { _ = proxy.stop() }
                for port in [recorder.port, proxy.port] {
                    let rebound = try exchange(port: port, "GET /v1/items HTTP/1.1\r\nHost: rebind.example:\(port)\r\n\r\n")
                    #expect(rebound.status == 403)
                    #expect(rebound.text.contains("--allow-host rebind.example"), "\(rebound.text)")
                }
                #expect(backend.journal.entries().isEmpty)
                // The mocked endpoints answer as before, whatever the Host: they hold nothing but fixtures
                let mocked = try exchange(port: proxy.port, "GET /healthChecker HTTP/1.1\r\nHost: rebind.example\r\n\r\n")
                #expect(mocked.status == 200)
            }
        }
    }

    @Test(arguments: [false, true])
    func foldersThatHoldContracts_WithoutMerge_StopTheStart_NotTheFinalWrite(proxying: Bool) async throws {
        // Found at the end, the refusal would lose everything recorded as the process exits.
        let full = try ScratchContracts(contracts: [("mine.json", "{}")], fixtures: [])
        let refused = try await offThePool { () -> Bool in
            let flags = proxying
                ? ["--proxy", "http://127.0.0.1:9", "--record", "--record-contracts", full.contracts, "--record-fixtures",
                   full.fixtures, "--contracts", ContractCatalog.contractsDirectory, "--fixtures", ContractCatalog.fixturesDirectory]
                : ["record", "--target", "http://127.0.0.1:9", "--contracts", full.contracts, "--fixtures", full.fixtures]
            // A recorder that started would print its port first; this one must exit before it listens.
            do {
                _ = try RunningExecutable(flags + ["--log", "off"]).stop()
                return false
            } catch {
                return true
            }
        }
        #expect(refused, "the recorder started")
        guard refused, !proxying else { return }   // (what follows would wait on a recorder that started)
        let result = try await ExecutableTests.run(["record", "--target", "http://127.0.0.1:9", "--port", "0",
                                                    "--contracts", full.contracts, "--fixtures", full.fixtures, "--quiet"])
        #expect(result.status == 1)
        #expect(result.error.contains("already holds contracts (mine.json); pass --merge"), "\(result.error)")
    }

    @Test func recorderOnEveryInterface_LetsADeviceFlush_WithTheToken() async throws {
        // A peer on the network: this machine's own interface address, which is not loopback.
        guard let address = POSIX.interfaceAddresses().first(where: { !$0.contains(":") }) else { return }
        try await offThePool {
            let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", "http://127.0.0.1:9", "--log", "off",
                                                                             "--host", "0.0.0.0", "--admin-token", "t0k"])
            defer { _ = recorder.stop() }
            func flush(_ token: String?) throws -> Int {
                let client = try RawClient(port: recorder.port, host: address, timeout: 10)
                client.send("POST /__mock/record/flush HTTP/1.1\r\nHost: \(address):\(recorder.port)\r\n"
                    + (token.map { "X-Mock-Admin-Token: \($0)\r\n" } ?? "") + "Content-Length: 0\r\n\r\n")
                return try client.readResponse().status
            }
            #expect(try flush(nil) == 401)
            #expect(try flush("t0k") == 200)
        }
    }

    @Test func record_BodyOverTheLimit_PassesThroughIntact_ButIsNotRecorded() async throws {
        let large = String(repeating: "0123456789", count: 400)
        let backend = try CannedServer(response: "HTTP/1.1 200 OK\r\nContent-Length: \(large.utf8.count)\r\n\r\n" + large)
        defer { backend.stop() }
        try await offThePool {
            let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", "http://127.0.0.1:\(backend.port)", "--log", "off",
                                                  "--max-record-bytes", "1000"])
            let response = try exchange(port: recorder.port, "GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(response.text == large)
            let flush = try exchange(port: recorder.port, "POST /__mock/record/flush HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Length: 0\r\n\r\n")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(flush.body)) as? [String: Any])
            #expect(body["flushed"] as? Int == 0)
            let ended = recorder.stop()
            #expect(ended.errors.contains("GET /large: not recorded, its response body of 4000 bytes exceeds"),
                    "\(ended.errors)")
        }
    }

    // MARK: - Failures

    @Test(arguments: [FailingTarget.refused, .unknownHost, .silent])
    func unreachableTarget_Answers502_NamingTheTargetAndTheReason(_ kind: FailingTarget) async throws {
        try await offThePool {
            let (target, keep) = try kind.make()
            defer { keep?() }
            let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", target, "--log", "off", "--upstream-timeout", "0.5"])
            defer { _ = recorder.stop() }
            let response = try exchange(port: recorder.port, "GET /anything HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(response.status == 502)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(body["status"] as? Int == 502)
            #expect(body["upstream"] as? String == target)
            let reason = try #require(body["upstreamError"] as? String)
            #expect(reason.contains(kind.reason), "\(reason)")
            #expect((body["responseMsg"] as? String)?.contains(target) == true)
        }
    }

    @Test(arguments: [
        (["record", "--target", "ftp://x"], "is not an http:// or https:// URL"),
        (["record", "--target", "http://"], "has no host"),
        (["record", "--target", "https://u:p@api.example.com"], "credentials in the URL are not supported"),
        (["record", "--target", "http://h/a?b=c"], "no query or fragment"),
        (["record"], "record needs --target"),
        (["--proxy", "ftp://x"], "is not an http:// or https:// URL"),
        (["--record"], "--record needs --proxy"),
        (["--target", "http://h"], "--target belongs to `mock-server record`"),
    ])
    func unusableTarget_IsAUsageError(arguments: [String], message: String) async throws {
        let result = try await ExecutableTests.run(arguments)
        #expect(result.status == 2)
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test func requestsWhoseClientsLeftWhileQueued_NeverReachTheBackend() async throws {
        // A backend whose /slow answers after 3 s: the eight relay threads are all busy with those.
        let folder = try ScratchContracts(contracts: [("slow.json", """
            {"domain": "slow", "endpoints": [
              {"id": "slow", "method": "GET", "path": "/slow", "scenarios": [{"name": "success", "status": 204, "delayMs": 3000, "expect": "success"}]},
              {"id": "fast", "method": "GET", "path": "/fast", "scenarios": [{"name": "success", "status": 204, "expect": "success"}]}]}
            """)], fixtures: [])
        let backend = try MockServer.backend(serving: folder)
        defer { backend.stop() }
        try await offThePool {
            let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", "http://127.0.0.1:\(backend.port)",
                                                                             "--log", "off"])
            defer { _ = recorder.stop() }
            let waiting = try (0..<8).map { _ in try RawClient(port: recorder.port, timeout: 10) }
            for client in waiting { client.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
            try pollUntil { backend.journal.entries().count == 8 }
            // WHEN twenty more clients ask and leave while their requests wait in the queue
            for _ in 0..<20 {
                let client = try RawClient(port: recorder.port)
                client.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            }   // each client's descriptor is closed as it goes out of scope
            // THEN the next request is relayed once the eight are done, and the abandoned ones never are
            #expect(try exchange(port: recorder.port, "GET /fast HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status == 204)
            for client in waiting { #expect(try client.readResponse().status == 204) }
            #expect(backend.journal.entries().filter { $0.target == "/slow" }.count == 8)
        }
    }

    @Test func clientThatLeavesWhileItsRequestIsUpstream_CostsNothing_AndTheProxyKeepsServing() async throws {
        try await offThePool {
            let silent = try SilentBackend()
            defer { silent.close() }
            let recorder = try RunningExecutable(["record"] + Self.output() + ["--target", "http://127.0.0.1:\(silent.port)", "--log", "off",
                                                  "--upstream-timeout", "1"])
            defer { _ = recorder.stop() }
            // GIVEN clients that give up while their requests wait for a backend that never answers
            for _ in 0..<20 {
                let client = try RawClient(port: recorder.port)
                client.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            }
            // THEN the proxy still answers at once what it answers itself, and later, after the upstream timeouts
            #expect(try exchange(port: recorder.port, Self.flushRequest).status == 200)
            Thread.sleep(forTimeInterval: 1.5)
            #expect(recorder.isRunning)
            #expect(try exchange(port: recorder.port, Self.flushRequest).status == 200)
        }
    }

    // MARK: - Proxy while serving

    @Test func proxy_PassesUnmatchedRequestsThrough_WhileEndpointsStayMocked_AndMarksThem() async throws {
        try await withBackend { backend in
            try await offThePool {
                let server = try RunningExecutable(["--proxy", backend.url + "/api", "--log", "json",
                                                    "--contracts", ContractCatalog.contractsDirectory,
                                                    "--fixtures", ContractCatalog.fixturesDirectory])
                let mocked = try exchange(port: server.port, "GET /healthChecker HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(mocked.text == "OK" && mocked.header("Via") == nil)
                let relayed = try exchange(port: server.port, "GET /v1/items HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(relayed.text == Self.itemsBody && relayed.header("Via") == "1.1 mock-server")
                // The journal marks the relayed request, with the status the backend gave
                let journal = try exchange(port: server.port, "GET /__mock/journal HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let entries = try #require(try JSONSerialization.jsonObject(with: Data(journal.body)) as? [[String: Any]])
                let entry = try #require(entries.first { $0["target"] as? String == "/v1/items" })
                #expect(entry["proxied"] as? Bool == true && entry["status"] as? Int == 200)
                // The client gets the backend's session cookie; the journal shows it redacted, like a request's
                #expect(relayed.header("Set-Cookie") == "sid=backend-secret; Path=/")
                let shown = try #require(entry["responseHeaders"] as? [[String]])
                #expect(shown.contains(["Set-Cookie", "<redacted, 26 bytes>"]) && shown.contains(["X-End", "kept"]), "\(shown)")
                #expect(!journal.text.contains("backend-secret"))
                #expect(entries.first { $0["target"] as? String == "/healthChecker" }?["proxied"] == nil)
                // And so does the access log
                let ended = server.stop()
                let lines = ended.output.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                let line = try #require(lines.first { $0["target"] as? String == "/v1/items" }, "\(ended.output)")
                #expect(line["proxied"] as? Bool == true && line["status"] as? Int == 200 && line["fault"] == nil)
            }
        }
    }

    @Test func proxyWithRecord_FlushesTheRelayedExchanges_AndWithoutRecordHasNothingToFlush() async throws {
        try await withBackend { backend in
            try await offThePool {
                let recording = try RunningExecutable(Self.output(proxying: true) + ["--proxy", backend.url + "/api", "--record", "--log", "off",
                                                       "--contracts", ContractCatalog.contractsDirectory,
                                                       "--fixtures", ContractCatalog.fixturesDirectory])
                _ = try exchange(port: recording.port, "GET /healthChecker HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                _ = try exchange(port: recording.port, "GET /v1/items HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let flush = try exchange(port: recording.port, Self.flushRequest)
                let body = try #require(try JSONSerialization.jsonObject(with: Data(flush.body)) as? [String: Any])
                // Only what went to the backend is recorded, not what the contracts answered
                #expect(flush.status == 200 && body["flushed"] as? Int == 1)
                let ended = recording.stop()
                #expect(ended.status == 0 && ended.errors.contains("recording: wrote 1 exchange"), "\(ended.errors)")

                let plain = try RunningExecutable(["--proxy", backend.url, "--log", "off",
                                                   "--contracts", ContractCatalog.contractsDirectory,
                                                   "--fixtures", ContractCatalog.fixturesDirectory])
                defer { _ = plain.stop() }
                #expect(try exchange(port: plain.port, Self.flushRequest).status == 404)
            }
        }
    }

    @Test func proxyScenario_PassesThroughWhenChosen_AndNeedsProxyToLoad() async throws {
        let served = try ScratchContracts(contracts: [("items.json", """
            {"domain": "items", "endpoints": [{"id": "items", "method": "GET", "path": "/v1/items",
              "response": {"contentType": "application/json"},
              "scenarios": [{"name": "mocked", "status": 200, "body": "local.json", "expect": "success"},
                            {"name": "live", "proxy": true, "expect": "success"}]}]}
            """)], fixtures: [("local.json", #"{"local":true}"#)])
        // Without --proxy the contract does not load: the server would have nowhere to pass the request to
        let refused = try await ExecutableTests.run(["--port", "0", "--contracts", served.contracts, "--fixtures", served.fixtures])
        #expect(refused.status == 1)
        #expect(refused.error.contains("items.live: passes through to the backend"), "\(refused.error)")
        try await withBackend { backend in
            try await offThePool {
                let server = try RunningExecutable(["--proxy", backend.url + "/api", "--log", "off", "--cors",
                                                    "--contracts", served.contracts, "--fixtures", served.fixtures])
                defer { _ = server.stop() }
                let mocked = try exchange(port: server.port, "GET /v1/items HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(mocked.text == #"{"local":true}"#)
                let live = try exchange(port: server.port, "GET /v1/items HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Origin: http://localhost:3000\r\nX-Mock-Scenario: live\r\n\r\n")
                #expect(live.text == Self.itemsBody && live.header("Via") == "1.1 mock-server")
                // A page on another origin may read it, as it may read the mocked scenario
                #expect(live.header("Access-Control-Allow-Origin") == "http://localhost:3000")
            }
        }
    }

    // MARK: - Support

    static let itemsBody = #"{"items":[1,2,3]}"#

    /// Output folders of a test's own for a recorder (`--record-contracts`… with `--proxy --record`), so that
    /// no test writes the default `./Recorded` into the working directory; removed when the test process exits.
    static func output(proxying: Bool = false) throws -> [String] {
        let root = try TestTemporaryFolder.folder("recorded", create: false)
        return proxying ? ["--record-contracts", root + "/Contracts", "--record-fixtures", root + "/Fixtures"]
            : ["--contracts", root + "/Contracts", "--fixtures", root + "/Fixtures"]
    }
    static let flushRequest = "POST /__mock/record/flush HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"

    /// This package's server as the backend, in-process, serving `/api/v1/items`.
    private func withBackend(_ body: (MockServer) async throws -> Void) async throws {
        let folder = try ScratchContracts(contracts: [("items.json", """
            {"domain": "items", "endpoints": [{"id": "items", "method": "GET", "path": "/api/v1/items",
              "response": {"contentType": "application/json"},
              "scenarios": [{"name": "success", "status": 200, "body": "items.json", "headers": {"X-End": "kept", "Set-Cookie": "sid=backend-secret; Path=/"},
                             "expect": "success"}]}]}
            """)], fixtures: [("items.json", Self.itemsBody)])
        let server = try MockServer.backend(serving: folder)
        defer { server.stop() }
        try await body(server)
    }
}

/// One request on a fresh connection, and its response (blocking: call it off the cooperative pool).
private func exchange(port: UInt16, _ request: String) throws -> RawResponse {
    let client = try RawClient(port: port, timeout: 10)
    client.send(request)
    return try client.readResponse()
}

/// Backends that give no answer, each for its own reason.
enum FailingTarget: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case refused, unknownHost, silent

    var testDescription: String { rawValue }

    /// What the 502 says.
    var reason: String {
        switch self {
        case .refused: "connection refused"
        case .unknownHost: "DNS"
        case .silent: "timeout"
        }
    }

    /// The target URL, and what to close once done.
    func make() throws -> (String, (() -> Void)?) {
        switch self {
        case .refused:
            let port = try RefusingPort()
            return ("http://127.0.0.1:\(port.port)", { port.close() })
        case .unknownHost:
            // RFC 6761: .invalid never resolves.
            return ("http://no-such-backend.invalid", nil)
        case .silent:
            let backend = try SilentBackend()
            return ("http://127.0.0.1:\(backend.port)", { backend.close() })
        }
    }
}

/// A port that accepts connections (the kernel completes them from the backlog) and never answers.
final class SilentBackend: @unchecked Sendable {
    // @unchecked: the descriptor is closed once, by the test that made it.
    let fd: Int32
    let port: UInt16

    init() throws {
        _ = TestProcess.descriptorLimit
        fd = try POSIX.makeListener(host: "127.0.0.1", port: 0, backlog: 64)
        port = POSIX.boundPort(fd)
    }

    func close() { POSIX.close(fd) }
}

/// The executable started with `arguments` (and `--port 0`), its port read from the listening line.
final class RunningExecutable: @unchecked Sendable {
    // @unchecked: used by one test at a time, off the cooperative pool.
    let process = Process()
    let port: UInt16
    private let output = Pipe()
    private let errors = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = try ExecutableTests.executableURL()
        process.arguments = arguments + ["--port", "0"]
        process.standardOutput = output
        process.standardError = errors
        try ChildProcesses.run(process)
        let line = try ExecutableTests.readLine(from: output.fileHandleForReading)
        let text = line.hasPrefix("{") ? (line.split(separator: "\"").last { $0.hasPrefix("http") }.map(String.init) ?? line) : line
        guard let port = text.split(separator: ":").last.flatMap({ UInt16($0.prefix { $0.isNumber }) }) else {
            process.terminate()
            throw NoPort(line: line)
        }
        self.port = port
    }

    struct NoPort: Error, CustomStringConvertible {
        let line: String
        var description: String { "no port in the first line: \(line)" }
    }

    var isRunning: Bool { process.isRunning }

    /// SIGTERM, then waits up to 10 s for the exit (SIGKILL after that); what it wrote besides its first line.
    @discardableResult
    func stop() -> (status: Int32, reason: Process.TerminationReason, output: String, errors: String) {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, process.terminationReason, out, err)
    }
}
