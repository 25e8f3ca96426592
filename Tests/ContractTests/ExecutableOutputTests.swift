import ContractModel
import Foundation
import TestSupport
import Testing

/// What the executable prints and how it exits, for a person at a terminal and for a harness that
/// pipes it: JSON lines only under `--log json`, one line under `--quiet`, errors with absolute paths
/// and hints, usage errors caught as such. Exit codes: 0 fine, 1 contract problems, 2 usage errors.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableOutputTests {
    private let folders = ["--contracts", ContractCatalog.contractsDirectory, "--fixtures", ContractCatalog.fixturesDirectory]

    @Test func logJSON_PutsTheBannerAndTableOnStandardError() async throws {
        let process = Process()
        process.executableURL = try ExecutableTests.executableURL()
        process.arguments = ["--port", "0", "--log", "json"] + folders
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try ChildProcesses.run(process)
        let first = try ExecutableTests.readLine(from: output.fileHandleForReading)
        // The banner's last line, before the process is stopped (a SIGTERM sooner could cut the banner short).
        var banner: [String] = []
        while banner.last?.hasPrefix("admin API:") != true {
            banner.append(try ExecutableTests.readLine(from: errors.fileHandleForReading))
        }
        process.terminate()
        process.waitUntilExit()
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = banner.joined(separator: "\n")
            + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        for line in [first] + rest.split(separator: "\n").map(String.init) {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
        #expect(stderr.contains("DOMAIN") && stderr.contains("event loop") && stderr.contains("dashboard: http://"))
    }

    @Test func quiet_PrintsOnlyTheListeningLine() async throws {
        let process = Process()
        process.executableURL = try ExecutableTests.executableURL()
        process.arguments = ["--port", "0", "--quiet"] + folders
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try ChildProcesses.run(process)
        let first = try ExecutableTests.readLine(from: output.fileHandleForReading)
        #expect(first.hasPrefix("listening on http://127.0.0.1:"))
        // A request, which --quiet does not log.
        let port = try #require(first.split(separator: ":").last.flatMap { Int($0) })
        _ = try? Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/healthChecker")!)
        process.interrupt()
        process.waitUntilExit()
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest == "stopped (SIGINT)\n")
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).isEmpty)
    }

    @Test func missingFolders_AreNamedAbsolutely_WithAHint() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = try ExecutableTests.executableURL()
        process.arguments = ["--port", "0"]
        process.currentDirectoryURL = scratch
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try ChildProcesses.run(process)
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        let root = scratch.resolvingSymlinksInPath().path
        #expect(text.contains("error: \(root)/Contracts: contracts folder not found (run from the package root, or pass --contracts <dir>)")
                || text.contains("error: \(scratch.path)/Contracts: contracts folder not found"), "\(text)")
        #expect(!text.contains(": -:"), "no placeholder path: \(text)")
    }

    @Test(arguments: [
        (["validate", "--port", "1"], "validate does not take --port; it takes --contracts, --fixtures"),
        (["--list-endpoints", "--threads", "2"], "--list-endpoints does not take --threads"),
        (["--scenario", "nope"], "--scenario: no endpoint has a scenario \"nope\"; known: "),
        (["--frobnicate"], "unknown option '--frobnicate'"),
        // A flag of another command is named as typed, and blamed on the command it was given to.
        (["openapi", "export", "--force"], "openapi export does not take --force"),
        (["record", "--target", "http://127.0.0.1:9", "--list-endpoints"], "--list-endpoints does not take --target"),
        (["-o", "x"], "-o belongs to the openapi subcommands"),
    ])
    func usageErrors_ExitTwo_WithOneLine(arguments: [String], message: String) async throws {
        let result = try await ExecutableTests.run(arguments + folders + ["--port", "0"].filter { _ in arguments.first == "--scenario" })
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    }

    @Test func validate_NamesEndpointAndScenario_AndKeepsThePath() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("named-\(UUID().uuidString)")
        let contracts = scratch.appendingPathComponent("Contracts"), fixtures = scratch.appendingPathComponent("Fixtures")
        try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(#"""
            { "domain": "d", "endpoints": [
              { "id": "first", "method": "GET", "path": "/a", "scenarios": [ { "name": "ok", "status": 200, "expect": "success" } ] },
              { "id": "second", "method": "GET", "path": "/b", "scenarios": [
                { "name": "ok", "status": 200, "expect": "success" },
                { "name": "slow", "status": 200, "body": "missing.json", "expect": "success" } ] } ] }
            """#.utf8).write(to: contracts.appendingPathComponent("d.json"))
        let result = try await ExecutableTests.run(["validate", "--contracts", contracts.path, "--fixtures", fixtures.path])
        #expect(result.status == 1)
        #expect(result.error.contains(#"d.json: endpoint second, scenario "slow": $.endpoints[1].scenarios[1].body: fixture "missing.json" not found"#),
                "\(result.error)")
    }

    /// Loading that takes more than a second (here, three 7 MB fixtures read strictly by a debug build)
    /// says how far it got, on stderr, and then serves.
    @Test func slowLoading_ReportsProgress_OnStandardError() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString)")
        let contracts = scratch.appendingPathComponent("Contracts"), fixtures = scratch.appendingPathComponent("Fixtures")
        try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let item = #"{"id":123456,"name":"a product with a long enough name","price":12.5,"tags":["a","b"]},"#
        let body = "[" + String(repeating: item, count: 7_000_000 / item.utf8.count) + "{}]"
        var endpoints: [String] = []
        for index in 0..<3 {
            try Data(body.utf8).write(to: fixtures.appendingPathComponent("large\(index).json"))
            endpoints.append(#"{ "id": "large\#(index)", "method": "GET", "path": "/large/\#(index)", "scenarios": [ { "name": "ok", "status": 200, "body": "large\#(index).json", "expect": "success" } ] }"#)
        }
        try Data(#"{ "domain": "large", "endpoints": [ \#(endpoints.joined(separator: ", ")) ] }"#.utf8)
            .write(to: contracts.appendingPathComponent("large.json"))
        let started = ContinuousClock.now
        let result = try await ExecutableTests.run(["--list-endpoints", "--contracts", contracts.path, "--fixtures", fixtures.path])
        let took = ContinuousClock.now - started
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("large2"))
        // A build quick enough to check 21 MB within a second or so has nothing to report.
        if took > .seconds(2) {
            #expect(result.error.hasPrefix("loading: ") && result.error.contains("fixtures checked"), "\(result.error)")
        } else {
            #expect(result.error.isEmpty || result.error.hasPrefix("loading: "), "\(result.error)")
        }
    }

    /// The table lists each endpoint's default scenario first, and `--scenario` changes the default.
    @Test func listEndpoints_WithScenario_PutsThatScenarioFirst() async throws {
        let result = try await ExecutableTests.run(["--list-endpoints", "--scenario", "slow"] + folders)
        #expect(result.status == 0, "\(result.error)")
        let health = try #require(result.output.split(separator: "\n").first { $0.contains("healthCheck") })
        #expect(health.hasSuffix("slow, success, requestErr, pathErr, serverErr, malformed, hang, flaky"), "\(health)")
    }
}

/// The help's options: each synopsis two spaces or more from its text, or on a line of its own.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableHelpTests {
    @Test func everyOption_IsSetApartFromItsHelp() async throws {
        let help = try await ExecutableTests.run(["--help"])
        #expect(help.status == 0)
        let options = help.output.split(separator: "\n").filter { $0.hasPrefix("  -") }
        #expect(options.count > 30)
        // The names (`-h, --help`), the value words (`<n>`, `[<origin>]`, `<junit|json> <file>`), then two spaces and
        // the help, or nothing.
        let shape = #/  -\S+(, -\S+)?( [<\[]\S+)*(  +\S.*)?/#
        for line in options {
            #expect(String(line).wholeMatch(of: shape) != nil, "glued to its help: \(line)")
        }
    }
}
