#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestSupport

/// The real executable left running the way developers leave it: output nobody reads, too few
/// descriptors, a LAN address.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableSafetyTests {
    /// A harness that reads only the first line of stdout must not stop the server: the access log is
    /// written from its own thread and drops lines when nobody reads them.
    @Test func undrainedStdout_NeverStopsTheServer() throws {
        let (process, output, firstLine) = try ExecutableTests.launch(log: "text")
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            withExtendedLifetime(output) {}
        }
        let port = try #require(firstLine.split(separator: ":").last.flatMap { UInt16($0) })
        let client = try RawClient(port: port, timeout: 10)
        let batch = String(repeating: "GET /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n", count: 500)
        for _ in 0..<10 {
            client.send(batch)
            for _ in 0..<500 { #expect(try client.readResponse().status == 200) }
        }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!process.isRunning, "SIGTERM must stop the server even with its stdout full")
    }

    /// A stdout pipe that is already full when the server starts: its banner blocks the main thread,
    /// yet SIGTERM still ends the process.
    @Test func sigterm_StopsTheServer_WhenStdoutIsFullFromTheStart() throws {
        let output = Pipe()
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        let writeEnd = output.fileHandleForWriting.fileDescriptor
        let flags = fcntl(writeEnd, F_GETFL)
        _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
        while filler.withUnsafeBytes({ write(writeEnd, $0.baseAddress, $0.count) }) > 0 {}
        _ = fcntl(writeEnd, F_SETFL, flags)

        let process = Process()
        process.executableURL = try ExecutableTests.executableURL()
        process.arguments = ["--port", "0", "--log", "text", "--contracts", ContractCatalog.contractsDirectory,
                             "--fixtures", ContractCatalog.fixturesDirectory]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ChildProcesses.run(process)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        usleep(500_000)
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!process.isRunning, "SIGTERM must end the process even when stdout never drains")
        withExtendedLifetime(output) {}
    }

    @Test func lanAddress_PrintsWhoCanReachIt_AndTheAdminToken() throws {
        let errors = Pipe()
        let process = Process()
        process.executableURL = try ExecutableTests.executableURL()
        process.arguments = ["--host", "0.0.0.0", "--port", "0", "--log", "off", "--contracts",
                             ContractCatalog.contractsDirectory, "--fixtures", ContractCatalog.fixturesDirectory]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try ChildProcesses.run(process)
        defer { process.terminate(); process.waitUntilExit() }
        let warning = try ExecutableTests.readLine(from: errors.fileHandleForReading)
        #expect(warning.hasPrefix("warning: devices on your networks"))
        #expect(warning.contains("can reach the mock endpoints; the admin API needs the header X-Mock-Admin-Token: "))
        let token = try #require(warning.components(separatedBy: "X-Mock-Admin-Token: ").last?.split(separator: " ").first)
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit))
    }

    #if os(Linux)
    /// Out of descriptors, the server pauses accepting instead of spinning, says so once a second on
    /// stderr, keeps serving open connections, and accepts the waiting ones once descriptors free up.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func outOfDescriptors_PausesAccepting_AndRecovers() throws {
        let errors = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = ["--nofile=32:32", try ExecutableTests.executableURL().path, "--port", "0", "--log", "off",
                             "--threads", "1", "--contracts", ContractCatalog.contractsDirectory,
                             "--fixtures", ContractCatalog.fixturesDirectory]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try ChildProcesses.run(process)
        defer { process.terminate(); process.waitUntilExit() }
        let firstLine = try ExecutableTests.readLine(from: output.fileHandleForReading)
        let port = try #require(firstLine.split(separator: ":").last.flatMap { UInt16($0) })

        // 32 descriptors: 16 are kept in reserve for the server's own files, 16 for connections.
        var clients: [RawClient] = []
        for _ in 0..<40 {
            let client = try RawClient(port: port, timeout: 1)
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n")
            clients.append(client)
        }
        for client in clients[..<16] { #expect(try client.readResponse().status == 200) }
        #expect(throws: POSIXFailure.self, "the 17th connection waits in the backlog") { try clients[16].readResponse() }
        // Open connections go on while others wait.
        #expect(try clients[0].get("/healthChecker").status == 200)
        let cpuBefore = try Self.cpuTicks(process.processIdentifier)
        usleep(500_000)
        let cpuAfter = try Self.cpuTicks(process.processIdentifier)
        #expect(cpuAfter - cpuBefore < 20, "spinning while out of descriptors: \(cpuAfter - cpuBefore) ticks in 0.5 s")

        // Closing connections frees their places: the waiting requests are answered, 16 at a time.
        clients.removeFirst(16)
        for client in clients[..<16] { #expect(try client.readResponse().status == 200) }
        clients.removeFirst(16)
        for client in clients { #expect(try client.readResponse().status == 200) }
        let warning = try ExecutableTests.readLine(from: errors.fileHandleForReading)
        #expect(warning.hasPrefix("mock-server: out of file descriptors (limit 32, 16 for connections)"))
    }

    /// User plus system time of a process, in clock ticks.
    private static func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
    #endif
}
