import Foundation
import TestSupport
import Testing

/// The start-up banner's link to the dashboard, in each case of the admin token: none, given with
/// `--admin-token` (in the link's fragment, which no browser sends), or made up for devices on the network.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableDashboardTests {
    /// Reads standard output until the banner's dashboard line.
    private func dashboardLine(_ output: Pipe) throws -> String {
        while true {
            let line = try ExecutableTests.readLine(from: output.fileHandleForReading)
            if line.hasPrefix("dashboard: ") { return String(line.dropFirst("dashboard: ".count)) }
        }
    }

    @Test func banner_LinksTheDashboard_WhichServesThePage() throws {
        let (process, output, firstLine) = try ExecutableTests.launch(log: "off")
        defer { process.terminate(); process.waitUntilExit() }
        let port = try #require(firstLine.split(separator: ":").last.flatMap { UInt16($0) })
        #expect(try dashboardLine(output) == "http://127.0.0.1:\(port)/__mock/")
        let page = try RawClient(port: port).get("/__mock/")
        #expect(page.status == 200 && page.text.contains("<title>mock-server dashboard</title>"))
    }

    @Test func givenToken_IsInTheLinksFragment_Encoded() throws {
        let (process, output, firstLine) = try ExecutableTests.launch(log: "off", arguments: ["--admin-token", "a&b/c"])
        defer { process.terminate(); process.waitUntilExit() }
        let port = try #require(firstLine.split(separator: ":").last.flatMap { UInt16($0) })
        #expect(try dashboardLine(output) == "http://127.0.0.1:\(port)/__mock/#token=a%26b%2Fc")
        #expect(try RawClient(port: port).get("/__mock/").status == 200)
        #expect(try RawClient(port: port).get("/__mock/health").status == 401)
    }

    @Test func exposedServer_LinksThisMachineWithoutToken_AndOtherDevicesWithTheMadeUpOne() throws {
        let errors = Pipe()
        let output = Pipe()
        let process = Process()
        process.executableURL = try ExecutableTests.executableURL()
        process.arguments = ["--host", "0.0.0.0", "--port", "0", "--log", "off", "--contracts",
                             ContractCatalog.contractsDirectory, "--fixtures", ContractCatalog.fixturesDirectory]
        process.standardOutput = output
        process.standardError = errors
        try ChildProcesses.run(process)
        defer { process.terminate(); process.waitUntilExit() }
        let firstLine = try ExecutableTests.readLine(from: output.fileHandleForReading)
        let port = try #require(firstLine.split(separator: ":").last.flatMap { UInt16($0) })
        #expect(try dashboardLine(output) == "http://127.0.0.1:\(port)/__mock/")
        let warning = try ExecutableTests.readLine(from: errors.fileHandleForReading)
        let token = try #require(warning.components(separatedBy: "X-Mock-Admin-Token: ").last?.split(separator: " ").first)
        if warning.contains("their dashboard: ") {
            #expect(warning.contains(":\(port)/__mock/#token=\(token)"), "\(warning)")
        }
    }
}
