import ContractModel
import HTTPCore
import MockServer
import Verifier
import Recorder

/// `mock-server`: argument parsing, start-up output and signal handling. Everything else is the
/// MockServer library.
@main
enum MockServerCommand {
    static let version = "mock-server \(MockServer.version)"

    static func main() {
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail(error.description, code: 2)
        }
        switch options.command {
        case .help:
            emit(CommandLineOptions.usage)
        case .version:
            emit(version)
        case .validate:
            validate(options.configuration)
        case .openAPIExport:
            OpenAPICommand.export(options.configuration, to: options.outputFile)
        case .openAPIImport:
            OpenAPICommand.importDocument(options.specFile ?? "", configuration: options.configuration, force: options.force)
        case .listEndpoints:
            emit(EndpointTable.render(load(options.configuration).contracts, serverScenario: options.configuration.scenario))
        case .serve:
            serve(options, output: Output(json: options.configuration.logFormat == .json, quiet: options.quiet))
        case .record:
            RecordCommand.record(options, output: Output(json: options.configuration.logFormat == .json,
                                                         quiet: options.quiet))
        case .verify:
            VerifyCommand.verify(options)
        }
    }

    private static func validate(_ configuration: MockServer.Configuration) {
        do {
            let contracts = try ContractLoader.load(contractsDirectory: configuration.contractsDirectory,
                                                    fixturesDirectory: configuration.fixturesDirectory)
            let scenarios = contracts.endpoints.reduce(0) { $0 + $1.scenarios.count }
            emit("ok: \(contracts.contracts.count) contracts, \(contracts.endpoints.count) endpoints, "
                 + "\(scenarios) scenarios")
        } catch {
            for problem in error.problems { emit("error: \(problem)", toStandardError: true) }
            fail("\(error.problems.count) problem(s) found", code: 1)
        }
    }

    /// Where the start-up lines go: with `--log json` standard output carries only JSON lines (the
    /// listening line as one), so `mock-server --log json | jq` works; `--quiet` keeps the listening line only.
    struct Output: Sendable {
        let json: Bool
        let quiet: Bool

        /// The first line on standard output; a harness reads the port from it.
        func listening(host: String, port: UInt16) -> String {
            let url = "http://" + SocketError.display(host: host, port: port)
            return json ? #"{"event":"listening","port":\#(port),"url":"\#(url)"}"# : "listening on \(url)"
        }

        /// Banner and table: standard output as text, standard error beside JSON, nowhere when quiet.
        func note(_ text: String) {
            if !quiet { MockServerCommand.emit(text, toStandardError: json) }
        }

        /// A reload that worked is a note; one that failed is an error, on standard error even when quiet,
        /// with every problem.
        func reloaded(_ outcome: ReloadOutcome) {
            guard !outcome.succeeded else {
                note("contracts reloaded: \(outcome.endpoints) endpoints")
                return
            }
            for problem in outcome.problems { MockServerCommand.emit("error: \(problem)", toStandardError: true) }
            MockServerCommand.emit("mock-server: contracts not reloaded (\(outcome.problems.count) problem(s)); "
                                   + "still serving the previous set", toStandardError: true)
        }

        func stopped(_ signal: POSIX.Signal) -> String {
            json ? #"{"event":"stopped","signal":"\#(signal.name)"}"# : "stopped (\(signal.name))"
        }
    }

    private static func serve(_ options: CommandLineOptions, output: Output) {
        var configuration = options.configuration
        configuration.onReload = { output.reloaded($0) }
        let recording = options.recording.record
            ? options.recording.recording(extraHeaders: configuration.redactedHeaders,
                                        json: configuration.logFormat == .json) : nil
        let proxy = options.recording.target.map {
            RecordCommand.makeProxy(target: $0, options: options.recording, recording: recording)
        }
        configuration.upstream = proxy
        configuration.proxyFallback = options.recording.fallsBack
        configuration.driftCheck = proxy.map {
            ServedDriftCheck(proxy: $0, contractsDirectory: configuration.contractsDirectory,
                             fixturesDirectory: configuration.fixturesDirectory)
        }
        // Before any thread starts: every thread inherits the blocked set, and a signal that arrives
        // while the contracts load or the server starts stays pending until the signal thread takes it.
        POSIX.blockSignals(POSIX.Signal.allCases)
        let server = load(configuration)
        // Process-wide settings are the executable's, not the library's: a closed stdout pipe must not
        // kill the server, and many clients need many descriptors.
        POSIX.ignoreBrokenPipes()
        let descriptors = POSIX.raiseDescriptorLimit()
        // Signals get a thread of their own, started first, so a line blocked on a full stdout pipe cannot
        // hold them up.
        let signalThread: POSIX.ThreadHandle
        do {
            signalThread = try POSIX.startThread(stackSize: 256 * 1024) {
                handleSignals(output: output,
                              stop: {
                                  server.stop()
                                  proxy?.stop()
                              },
                              flush: { proxy.map { RecordCommand.finalFlush($0, recording: recording) } ?? true },
                              reload: {
                                  emit("SIGHUP: reloading the contracts", toStandardError: true)
                                  server.reloadContracts()
                              })
            }
        } catch {
            fail("cannot start the signal thread: \(error)", code: 1)
        }
        do {
            // The listening line is written once the socket listens and before any request is served, so it
            // is always the first line on stdout, ahead of the access log.
            try server.start { port in emit(output.listening(host: configuration.host, port: port)) }
        } catch {
            fail("cannot listen on \(server.address): \(error)", code: 1)
        }
        if server.isExposed { emit(exposureWarning(server), toStandardError: true) }
        output.note("dashboard: \(server.dashboardURL)")
        let loops = configuration.threads == 1 ? "1 event loop" : "\(configuration.threads) event loops"
        output.note("\(loops) (\(server.ioBackend)), up to \(descriptors.map(String.init) ?? "an unknown number of") open descriptors")
        output.note(EndpointTable.startUp(server.contracts, serverScenario: configuration.scenario))
        if let proxy {
            output.note("passing requests no endpoint serves, and \"proxy\" scenarios, to \(proxy.target)"
                + (recording.map { " and recording them to \($0.writer.contractsDirectory) and \($0.writer.fixturesDirectory)" } ?? ""))
        }
        // Not dispatchMain(): it waits in sigsuspend with every signal unblocked, where SIGTERM's default
        // action would end the process before the signal thread takes it.
        signalThread.join()
    }

    /// The server, not started, its contracts loaded and checked; a problem ends the process, the same
    /// way for `serve` and `--list-endpoints`. Loading that takes more than a second says how far it got
    /// on stderr, once a second.
    private static func load(_ configuration: MockServer.Configuration) -> MockServer {
        var configuration = configuration
        let started = POSIX.monotonicNanoseconds()
        let lastReport = Locked<UInt64>(started)
        configuration.loadProgress = { files, bytes in
            let now = POSIX.monotonicNanoseconds()
            guard now - started > 1_000_000_000,
                  lastReport.withValue({ last in
                      guard now - last >= 1_000_000_000 else { return false }
                      last = now
                      return true
                  }) else { return }
            emit("loading: \(files) fixture\(files == 1 ? "" : "s") checked, \(bytes >> 20) MiB…", toStandardError: true)
        }
        do {
            return try MockServer(configuration: configuration)
        } catch {
            // An unknown --scenario is the command line's fault, not the contracts'.
            if let scenario = error.problems.first, scenario.file == MockServer.unknownScenarioFile,
               error.problems.count == 1 {
                fail("--scenario: \(scenario.reason)", code: 2)
            }
            for problem in error.problems { emit("error: \(problem)", toStandardError: true) }
            fail("the contracts have \(error.problems.count) problem(s); `mock-server validate` lists them", code: 1)
        }
    }

    /// Who can reach a server bound beyond loopback, and how the admin API is protected, in one line.
    private static func exposureWarning(_ server: MockServer) -> String {
        let port = server.port
        let urls = server.networkAddresses.map { "http://" + SocketError.display(host: $0, port: port) }
        let reach = urls.isEmpty ? "devices on your networks" : "devices on your networks (" + urls.joined(separator: ", ") + ")"
        guard let token = server.adminToken else {
            return "warning: \(reach) can reach the mock endpoints; the admin API answers loopback only"
        }
        let dashboards = server.networkAddresses.map { server.dashboardURL(networkAddress: $0) }
        return "warning: \(reach) can reach the mock endpoints; the admin API needs the header X-Mock-Admin-Token: "
            + "\(token) from them" + (dashboards.isEmpty ? "" : "; their dashboard: " + dashboards.joined(separator: ", "))
    }

    /// SIGINT, SIGTERM and SIGQUIT stop accepting, let in-flight responses finish, write the recording if
    /// there is one, and exit 0 (1 when the recording could not be written: it is lost). SIGHUP reloads the
    /// contracts. SIGUSR1 and SIGUSR2 are logged and ignored.
    static func handleSignals(
        output: Output,
        stop: () -> Void,
        flush: () -> Bool,
        reload: () -> Void
    ) -> Never {
        while true {
            let signal = POSIX.waitForSignal(POSIX.Signal.allCases)
            switch signal {
            case .interrupt, .terminate, .quit:
                stop()
                let written = flush()
                // Through the writer, bounded: a stdout nobody reads must not keep the process alive.
                LogWriter.shared.write(output.stopped(signal))
                LogWriter.shared.flush(seconds: 1)
                POSIX.exit(written ? 0 : 1)
            case .hangUp:
                reload()
            case .user1, .user2:
                emit("\(signal.name) ignored (SIGINT, SIGTERM or SIGQUIT stop the server, SIGHUP reloads the contracts)",
                     toStandardError: true)
            }
        }
    }

    /// Unbuffered, so a parent process reading the first line sees it at once.
    static func emit(_ text: String, toStandardError: Bool = false) {
        POSIX.writeLine(text, toStandardError: toStandardError)
    }

    static func fail(_ message: String, code: Int32) -> Never {
        emit("mock-server: error: \(message)", toStandardError: true)
        POSIX.exit(code)
    }
}
