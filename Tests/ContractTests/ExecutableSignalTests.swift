#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestSupport

/// Signals sent to the real executable: none is ever lost, however early it arrives.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableSignalTests {
    private func start(
        stderr: Pipe? = nil,
        waitUntilListening: Bool = true,
        contracts: String = ContractCatalog.contractsDirectory,
        fixtures: String = ContractCatalog.fixturesDirectory
    ) throws -> Process {
        let process = Process()
        process.executableURL = try ExecutableTests.executableURL()
        process.arguments = ["--port", "0", "--log", "off", "--contracts", contracts, "--fixtures", fixtures]
        let output = Pipe()
        process.standardOutput = waitUntilListening ? output : FileHandle.nullDevice
        process.standardError = stderr ?? FileHandle.nullDevice
        try ChildProcesses.run(process)
        if waitUntilListening {
            #expect(try ExecutableTests.readLine(from: output.fileHandleForReading).hasPrefix("listening on "))
        }
        return process
    }

    /// Waits up to `seconds` for the process to end; `false` if it is still running (then it is killed).
    private func ends(_ process: Process, within seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return false
        }
        process.waitUntilExit()
        return true
    }

    @Test func sigterm_AtRandomMomentsInTheFirstTenMilliseconds_AlwaysStopsTheServer() throws {
        var stoppedCleanly = 0
        for _ in 0..<50 {
            let process = try start(waitUntilListening: false)
            usleep(UInt32.random(in: 0...10_000))
            kill(process.processIdentifier, SIGTERM)
            try #require(ends(process), "a SIGTERM was lost: the server kept running")
            // Before main() blocks the signal, its default action ends the process; after, it exits 0.
            let clean = process.terminationReason == .exit && process.terminationStatus == 0
            let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM
            #expect(clean || killed)
            if clean { stoppedCleanly += 1 }
        }
        #expect(stoppedCleanly > 0)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGQUIT])
    func stopSignals_ExitZero_WithoutACrashReport(signal: Int32) throws {
        let errors = Pipe()
        let process = try start(stderr: errors)
        kill(process.processIdentifier, signal)
        #expect(ends(process))
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.isEmpty, "\(text)")
    }

    @Test(arguments: [SIGUSR1, SIGUSR2])
    func otherSignals_AreLoggedAndIgnored(signal: Int32) throws {
        let errors = Pipe()
        let process = try start(stderr: errors)
        kill(process.processIdentifier, signal)
        usleep(200_000)
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGINT)
        #expect(ends(process))
        #expect(process.terminationStatus == 0)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("ignored (SIGINT, SIGTERM or SIGQUIT stop the server, SIGHUP reloads the contracts)"))
    }

    /// A contract broken while the server runs is refused with every problem on stderr, and the server
    /// goes on. SIGHUP asks for the reload; on Linux the contracts watcher may see the write first.
    @Test func brokenContractWhileRunning_IsReportedOnStderr_AndTheServerGoesOn() throws {
        let folder = try ScratchContracts(copying: ContractCatalog.root)
        let errors = Pipe()
        let process = try start(stderr: errors, contracts: folder.contracts, fixtures: folder.fixtures)
        try folder.writeContract("health.json", #"{"domain": "health", "endpoints": []}"#)
        kill(process.processIdentifier, SIGHUP)
        usleep(300_000)
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGINT)
        #expect(ends(process))
        #expect(process.terminationStatus == 0)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("SIGHUP: reloading the contracts"), "\(text)")
        #expect(text.contains("health.json: $.endpoints: must list at least one endpoint"), "\(text)")
        #expect(text.contains("contracts not reloaded"), "\(text)")
    }
}
