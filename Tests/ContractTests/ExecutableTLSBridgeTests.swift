#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestSupport

/// `https://` targets, run as the real executable: mock-server starts its TLS bridge (mock-server-tls) from its
/// own folder, and says clearly when the bridge is not there. The HTTPS exchanges themselves are checked by
/// Tests/HTTPS/run.sh, which needs a certificate the system trusts.
@Suite(.timeLimit(.minutes(2)))
struct ExecutableTLSBridgeTests {
    @Test(arguments: [["record", "--target"], ["--proxy"]])
    func httpsTarget_WithoutTheBridgeBesideTheExecutable_IsAClearStartError(flag: [String]) async throws {
        // GIVEN mock-server alone in an empty folder: a hard link beside the build folder, not a copy. A copy is
        // written through a descriptor that a child forked meanwhile by a parallel test inherits, and
        // executing a file still open for writing fails with ETXTBSY ("Text file busy").
        let executable = try ExecutableTests.executableURL()
        let folder = executable.deletingLastPathComponent().deletingLastPathComponent().path
            + "/tls-alone-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = folder + "/mock-server"
        try FileManager.default.linkItem(atPath: executable.path, toPath: copy)
        // WHEN it is given an https:// target
        let result = try await offThePool {
            try Self.run(copy, flag + ["https://localhost:1", "--port", "0", "--log", "off"]
                + (flag == ["--proxy"] ? [] : (try ExecutableRecordTests.output())))
        }
        // THEN it exits 1 naming the missing bridge and how to build it
        #expect(result.status == 1)
        #expect(result.error.contains(folder + "/mock-server-tls"), "\(result.error)")
        #expect(result.error.contains("swift build"), "\(result.error)")
    }

    @Test func httpsTarget_StartsTheBridge_AndAnUnreachableHostIsA502NamingTheReason() async throws {
        try await offThePool {
            // GIVEN record relaying to an https:// port where nothing listens
            let recorder = try RunningExecutable(["record"] + (try ExecutableRecordTests.output())
                + ["--target", "https://127.0.0.1:1/base", "--log", "off", "--upstream-timeout", "2"])
            defer { _ = recorder.stop() }
            // WHEN a request is relayed through the bridge
            let client = try RawClient(port: recorder.port, timeout: 10)
            client.send("GET /anything HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let response = try client.readResponse()
            // THEN the 502 names the target and the connection failure, not the bridge
            #expect(response.status == 502)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(body["upstream"] as? String == "https://127.0.0.1:1/base")
            let reason = try #require(body["upstreamError"] as? String)
            #expect(reason.contains("connection refused"), "\(reason)")
            // AND stopping mock-server ends the bridge with it
            let ended = recorder.stop()
            #expect(ended.status == 0, "\(ended.errors)")
        }
    }

    @Test func bridge_RelaysNothing_WithoutTheTokenItWasStartedWith() async throws {
        // The bridge listens on loopback, where other processes and DNS-rebinding pages can reach it too.
        let bridgePath = try ExecutableTests.executableURL().deletingLastPathComponent().appendingPathComponent("mock-server-tls")
        try await offThePool {
            let process = Process()
            process.executableURL = bridgePath
            process.arguments = ["--target", "https://127.0.0.1:1", "--token", "s3cret", "--port", "0", "--timeout", "1"]
            let output = Pipe(), input = Pipe()
            process.standardOutput = output
            process.standardInput = input
            try ChildProcesses.run(process)
            // Ended as mock-server ends it: its standard input closes (a runner thread may have SIGTERM blocked,
            // and a spawned child inherits that).
            defer { try? input.fileHandleForWriting.close(); process.waitUntilExit() }
            let port = try #require(UInt16(try ExecutableTests.readLine(from: output.fileHandleForReading)))
            func status(_ token: String?) throws -> Int {
                let client = try RawClient(port: port, timeout: 10)
                client.send("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (token.map { "X-Mock-Bridge-Token: \($0)\r\n" } ?? "") + "\r\n")
                return try client.readResponse().status
            }
            #expect(try status(nil) == 403)
            #expect(try status("guess") == 403)
            // With it, the request goes to the target (nothing listens there: the bridge's own 502)
            #expect(try status("s3cret") == 502)
        }
    }

    private static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try ChildProcesses.run(process)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
