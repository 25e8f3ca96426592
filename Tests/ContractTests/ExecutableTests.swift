#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Endpoints
import Foundation
import Networking
import TestSupport
import Testing

/// Runs the built `mock-server` executable the way users and CI do.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ExecutableTests {
    /// The executable built next to this test bundle (the test target depends on it), found from the
    /// image that holds this code: the test binary on Linux (`/proc/self/exe`), the `.xctest` bundle's
    /// binary on Darwin (`dladdr`), whatever process loaded it (`xctest`, `swiftpm-testing-helper`,
    /// Xcode), where `argv[0]` would name the loader.
    static func executableURL() throws -> URL {
        #if canImport(Darwin)
        var info = Dl_info()
        guard dladdr(#dsohandle, &info) != 0, let image = info.dli_fname else {
            throw ExecutableNotFound(near: "this test image (dladdr failed)")
        }
        let start = String(cString: image)
        #else
        let start = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #endif
        var directory = URL(fileURLWithPath: start).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("mock-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw ExecutableNotFound(near: start)
    }

    struct ExecutableNotFound: Error, CustomStringConvertible {
        let near: String
        var description: String { "no mock-server executable near \(near); run swift build first" }
    }

    @Test func executable_ServesContracts_AndExitsZeroOnSIGTERM() async throws {
        let (process, output, firstLine) = try Self.launch(log: "off")
        defer {
            if process.isRunning { process.terminate() }
            withExtendedLifetime(output) {} // the server keeps writing to it
        }
        #expect(firstLine.hasPrefix("listening on http://127.0.0.1:"))
        let port = try #require(firstLine.split(separator: ":").last.flatMap { Int($0) })

        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let client = APIClient(environment: .local(port: port), dispatcher: URLSessionDispatcher(session: session),
                               defaultTimeout: 30)
        #expect(await HealthService(client: client).check().value == "OK")
        #expect(await ProductService(client: client, vendorIdentifier: "v").detail(id: 3).value?.id == 3)
        let failing = APIClient(environment: .local(port: port), dispatcher: URLSessionDispatcher(session: session),
                                interceptors: [HeaderInterceptor(["X-Mock-Scenario": "serverErr"])])
        #expect(await QuestionService(client: failing) { "t" }.today().caseName == "serverErr")

        process.terminate() // SIGTERM
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// Runs `body` against the executable started on the bundled contracts, with a way to make a client of
    /// it in a mock session; stops the executable afterwards.
    private func withExecutable(_ body: (_ client: (MockSession) -> APIClient) async throws -> Void) async throws {
        let (process, output, firstLine) = try Self.launch(log: "off")
        defer {
            if process.isRunning { process.terminate() }
            withExtendedLifetime(output) {} // the server keeps writing to it
        }
        let port = try #require(firstLine.split(separator: ":").last.flatMap { Int($0) })
        let urlSession = URLSession(configuration: .ephemeral)
        defer { urlSession.finishTasksAndInvalidate() }
        try await body { session in
            APIClient(environment: .local(port: port), dispatcher: URLSessionDispatcher(session: urlSession),
                      interceptors: [session], defaultTimeout: 30)
        }
    }

    /// What follows the request, against the real executable: pages from the query, the flaky sequence
    /// and the answer-then-get flow, each in its own session.
    @Test func executable_ServesTemplatesSequencesAndStates_PerSession() async throws {
        try await withExecutable { client in
            let page = await ProductService(client: client(MockSession()), vendorIdentifier: "v").list(page: 2, itemsPerPage: 3)
            #expect(page.value?.pageNo == 2 && page.value?.itemsPerPage == 3 && page.value?.hasPrev == true)

            let flaky = HealthService(client: client(MockSession(scenario: "flaky")))
            var outcomes: [String] = []
            for _ in 0..<3 { outcomes.append(await flaky.check().caseName) }
            #expect(outcomes == ["serverErr", "serverErr", "success"])

            let answering = QuestionService(client: client(MockSession())) { "t" }
            #expect(await answering.answer(index: 3, myAnswer: "a").value?.myAnswer == "a")
            #expect(await answering.question(index: 3).value?.myAnswer == "한강 공원")
            #expect(await QuestionService(client: client(MockSession())) { "t" }.question(index: 3).value?.myAnswer == nil)
        }
    }

    /// The cart against the real executable: every operation and its errors, per session.
    @Test func executable_ServesTheCart_PerSession() async throws {
        try await withExecutable { client in
            func cart(_ session: MockSession) -> CartService { CartService(client: client(session)) { "t" } }
            let mine = cart(MockSession())
            let added = try #require(await mine.add(productId: 4, quantity: 2).value)
            #expect(await mine.replace(id: added.id, productId: 5, quantity: 1).value?.productId == 5)
            #expect(await mine.changeQuantity(id: added.id, quantity: 3).value?.quantity == 3)
            #expect(await mine.changeQuantity(id: added.id, quantity: 4, ifMatch: #""stale""#).caseName == "requestErr")
            #expect(await mine.items().value?.count == 3)
            #expect(await mine.remove(id: added.id).caseName == "success")
            #expect(await mine.item(id: added.id).caseName == "requestErr")
            #expect(await cart(MockSession()).items().value?.count == 2, "another session sees the seed")
            #expect(await cart(MockSession(scenario: "serverErr")).add(productId: 1, quantity: 1).caseName == "serverErr")
        }
    }

    @Test func executable_ValidateSubcommand_ReportsProblemsAndExitCode() async throws {
        let good = try await Self.run(["validate", "--contracts", ContractCatalog.contractsDirectory,
                                 "--fixtures", ContractCatalog.fixturesDirectory])
        #expect(good.status == 0)
        #expect(good.output.hasPrefix("ok: 3 contracts, 17 endpoints"))
        let bad = try await Self.run(["validate", "--contracts", "/nonexistent", "--fixtures", "/nonexistent"])
        #expect(bad.status == 1)
        #expect(bad.error.contains("contracts folder not found"))
        let usage = try await Self.run(["--port", "http"])
        #expect(usage.status == 2)
        #expect(usage.error.contains("--port: 'http' is not 0...65535"))
    }

    /// Runs the executable to its end, off the cooperative pool (see `offThePool`).
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String, error: String) {
        let executable = try executableURL()
        return try await offThePool { try runBlocking(executable, arguments, environment: environment) }
    }

    private static func runBlocking(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]
    ) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try ChildProcesses.run(process)
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self),
                String(decoding: errData, as: UTF8.self))
    }

    @Test func jsonAccessLog_HasALinePerRequest_WithStatusOrFault() async throws {
        let (process, output, firstLine) = try Self.launch(log: "json")
        defer { if process.isRunning { process.terminate() } }
        let listening = try #require(JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: Any])
        #expect(listening["event"] as? String == "listening")
        let port = try #require(listening["port"] as? Int)

        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let client = APIClient(environment: .local(port: port), dispatcher: URLSessionDispatcher(session: session),
                               defaultTimeout: 30)
        #expect(await HealthService(client: client).check().value == "OK")
        let faulty = APIClient(environment: .local(port: port), dispatcher: URLSessionDispatcher(session: session),
                               interceptors: [HeaderInterceptor(["X-Mock-Scenario": "malformed"])], defaultTimeout: 30)
        #expect(await HealthService(client: faulty).check().caseName == "networkFail")

        process.terminate()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Standard output carries JSON lines only: the access log, then the stop.
        let all = try text.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(all.last?["event"] as? String == "stopped" && all.last?["signal"] as? String == "SIGTERM")
        let lines = all.filter { $0["event"] == nil }
        #if canImport(Darwin)
        // CFNetwork may send an idempotent request once more after a failure on a reused connection.
        try #require(lines.count == 2 || lines.count == 3, "\(text)")
        #else
        try #require(lines.count == 2, "\(text)")
        #endif
        #expect(lines[0]["method"] as? String == "GET" && lines[0]["target"] as? String == "/healthChecker")
        #expect(lines[0]["status"] as? Int == 200 && lines[0]["scenario"] as? String == "success")
        #expect(lines[0]["fault"] == nil && (lines[0]["bytes"] as? Int ?? 0) > 2)
        for line in lines.dropFirst() {
            #expect(line["status"] == nil && line["fault"] as? String == "malformed_response")
            #expect(line["scenario"] as? String == "malformed")
        }
    }

    /// Starts the executable on a free port with the bundled contracts; returns it with its standard
    /// output and the first line there ("listening on http://127.0.0.1:<port>").
    /// - Parameters:
    ///   - wrapper: A command the executable runs under, such as `["taskset", "-c", "0"]`.
    ///   - environment: Added to this process's environment.
    static func launch(
        log: String,
        arguments: [String] = [],
        wrapper: [String] = [],
        environment: [String: String] = [:]
    ) throws -> (Process, Pipe, firstLine: String) {
        let process = Process()
        let executable = try executableURL()
        let serverArguments = ["--port", "0", "--log", log,
                               "--contracts", ContractCatalog.contractsDirectory,
                               "--fixtures", ContractCatalog.fixturesDirectory] + arguments
        if let command = wrapper.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = Array(wrapper.dropFirst()) + [executable.path] + serverArguments
        } else {
            process.executableURL = executable
            process.arguments = serverArguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try ChildProcesses.run(process)
        do {
            return (process, output, try readLine(from: output.fileHandleForReading))
        } catch {
            process.terminate()
            throw error
        }
    }

    static func readLine(from handle: FileHandle) throws -> String {
        var bytes: [UInt8] = []
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let first = byte.first else { throw ExecutableNotFound(near: "stdout closed before a line") }
            if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }
}
