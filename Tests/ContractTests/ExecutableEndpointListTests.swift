import ContractModel
import Foundation
import TestSupport
import Testing

/// How the executable shows the endpoints: the table at start-up while it is short, a summary line
/// once it is not, and the whole table on demand with `--list-endpoints`.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableEndpointListTests {
    @Test func listEndpoints_PrintsEveryBundledEndpoint_AndExitsZero() async throws {
        // GIVEN
        let set = try ContractCatalog.contracts.get()
        // WHEN
        let result = try await ExecutableTests.run(["--list-endpoints", "--contracts", ContractCatalog.contractsDirectory,
                                              "--fixtures", ContractCatalog.fixturesDirectory])
        // THEN a header, then one row per endpoint in contract order, its id in the second column
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("DOMAIN") == true)
        // The rows, up to the rules of the scenarios with a when.
        let ids = lines.dropFirst().prefix { !$0.hasPrefix("WHEN") }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
        #expect(ids.map(String.init) == set.endpoints.map(\.id))
        #expect(!result.output.contains("listening"))
    }

    @Test func listEndpoints_FailsAsTheServerDoes_WhenTheContractsDoNotLoad() async throws {
        let listing = try await ExecutableTests.run(["--list-endpoints", "--contracts", "/nonexistent",
                                               "--fixtures", ContractCatalog.fixturesDirectory])
        let serving = try await ExecutableTests.run(["--port", "0", "--contracts", "/nonexistent",
                                               "--fixtures", ContractCatalog.fixturesDirectory])
        #expect(listing.status == 1 && listing.output.isEmpty)
        #expect(listing.error.contains("contracts folder not found"))
        #expect(listing.status == serving.status && listing.error == serving.error)
    }

    @Test func listEndpoints_PrintsAThousandGeneratedEndpoints() async throws {
        let folder = try GeneratedContracts(endpoints: 1000)
        defer { folder.remove() }
        let result = try await ExecutableTests.run(["--list-endpoints", "--contracts", folder.contracts,
                                              "--fixtures", folder.fixtures])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 1001)
        #expect(lines.last?.contains("/bench/r0999/items/{id}") == true)
    }

    /// `lines` counts what the server prints after its first line, up to and including the admin API line.
    @Test(arguments: [(40, 40 + 4), (41, 4), (1000, 4)])
    func startUp_PrintsTheTableUpTo40Endpoints_AndASummaryLineBeyond(endpoints: Int, lines: Int) async throws {
        // GIVEN
        let folder = try GeneratedContracts(endpoints: endpoints)
        defer { folder.remove() }
        // WHEN
        let (process, output, firstLine) = try ExecutableTests.launch(
            log: "off", arguments: ["--contracts", folder.contracts, "--fixtures", folder.fixtures])
        defer {
            if process.isRunning { process.terminate() }
            withExtendedLifetime(output) {}
        }
        var startUp: [String] = []
        while startUp.last?.hasPrefix("admin API:") != true {
            startUp.append(try ExecutableTests.readLine(from: output.fileHandleForReading))
        }
        process.terminate()
        process.waitUntilExit()
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // THEN
        #expect(firstLine.hasPrefix("listening on "))
        #expect(startUp.count == lines, "\(startUp)")
        #expect(startUp[0].hasPrefix("dashboard: http://127.0.0.1:") && startUp[1].contains("event loop"))
        if endpoints > 40 {
            #expect(startUp[2] == "\(endpoints) endpoints in 2 contracts; mock-server --list-endpoints prints them")
        } else {
            #expect(startUp[2].hasPrefix("DOMAIN") && startUp[endpoints + 2].contains("/items/{id}"))
        }
        #expect(rest.split(separator: "\n") == ["stopped (SIGTERM)"])
    }
}

/// A contracts folder and a fixtures folder in a fresh temporary directory: `endpoints` GET endpoints
/// `/bench/r0000/items/{id}`, … split over two contract files, each serving one small JSON fixture.
struct GeneratedContracts {
    let root: URL
    var contracts: String { root.appendingPathComponent("Contracts").path }
    var fixtures: String { root.appendingPathComponent("Fixtures").path }

    init(endpoints: Int) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("endpoints-\(UUID().uuidString)")
        let manager = FileManager.default
        try manager.createDirectory(atPath: contracts, withIntermediateDirectories: true)
        try manager.createDirectory(atPath: fixtures + "/bench", withIntermediateDirectories: true)
        try Data(#"{"id": 1}"#.utf8).write(to: URL(fileURLWithPath: fixtures + "/bench/item.json"))
        let half = endpoints / 2
        for (file, range) in [("a.json", 0..<half), ("b.json", half..<endpoints)] {
            let list = range.map { index in
                let name = "r" + String(10_000 + index).dropFirst()
                return """
                    {"id": "\(name)", "method": "GET", "path": "/bench/\(name)/items/{id}",
                     "scenarios": [{"name": "success", "status": 200, "body": "bench/item.json", "expect": "success"}]}
                    """
            }
            let document = #"{"domain": "bench", "endpoints": ["# + list.joined(separator: ",\n") + "]}"
            try Data(document.utf8).write(to: URL(fileURLWithPath: contracts + "/" + file))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
