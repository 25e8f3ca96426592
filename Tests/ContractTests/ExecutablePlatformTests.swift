import Foundation
import MockServer
import TestSupport
import Testing

/// What the executable takes from the machine it runs on: processors, descriptors, the I/O backend.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutablePlatformTests {
    /// The line after the listening and dashboard lines: "<n> event loop(s) (<backend>), up to <m> open descriptors".
    private func startLine(
        arguments: [String] = [],
        wrapper: [String] = [],
        environment: [String: String] = [:]
    ) throws -> String {
        let (process, output, _) = try ExecutableTests.launch(log: "off", arguments: arguments, wrapper: wrapper,
                                                              environment: environment)
        defer {
            process.terminate()
            process.waitUntilExit()
            withExtendedLifetime(output) {}
        }
        var line = try ExecutableTests.readLine(from: output.fileHandleForReading)
        if line.hasPrefix("dashboard: ") { line = try ExecutableTests.readLine(from: output.fileHandleForReading) }
        return line
    }

    #if os(Linux)
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset")))
    func pinnedToOneCPU_RunsOneEventLoop() throws {
        #expect(try startLine(wrapper: ["/usr/bin/taskset", "-c", "0"]).hasPrefix("1 event loop ("))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func descriptorLimit_IsRaisedToTheHardLimit_AndReported() throws {
        #expect(try startLine(wrapper: ["/usr/bin/prlimit", "--nofile=100:1000"])
            .hasSuffix("up to 1000 open descriptors"))
        #expect(try startLine(wrapper: ["/usr/bin/prlimit", "--nofile=200:200"])
            .hasSuffix("up to 200 open descriptors"))
    }
    #endif

    @Test func ioFlag_AndEnvironment_ChooseTheBackend() async throws {
        #expect(try startLine(arguments: ["--io", "poll", "--threads", "3"]).hasPrefix("3 event loops (poll)"))
        #expect(try startLine(environment: ["MOCK_SERVER_IO": "poll"]).contains("(poll)"))
        #expect(try startLine(environment: ["MOCK_SERVER_IO": ""]).contains("(\(IOBackend.platformDefault))"))
    }

    @Test func unavailableBackend_IsAUsageError_NamingTheAvailableOnes() async throws {
        let other = IOBackend.platformDefault == .epoll ? "kqueue" : "epoll"
        let flag = try await ExecutableTests.run(["--io", other])
        #expect(flag.status == 2)
        let available = IOBackend.available.map(\.description).joined(separator: ", ")
        #expect(flag.error.contains("--io: '\(other)' is not available here; use one of \(available)"))

        let variable = try await ExecutableTests.run(["--port", "0", "--contracts", ContractCatalog.contractsDirectory,
                                                "--fixtures", ContractCatalog.fixturesDirectory],
                                               environment: ["MOCK_SERVER_IO": "select"])
        #expect(variable.status == 1)
        #expect(variable.error.contains("I/O backend MOCK_SERVER_IO=select is not available on this platform"))
    }
}
