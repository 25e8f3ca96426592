import ContractModel
import Dispatch
import MockServer

/// `mock-server`: argument parsing, start-up output and signal handling. Everything else is the
/// MockServer library.
@main
enum MockServerCommand {
    static let version = "mock-server 0.1.0"

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
        case .serve:
            serve(options.configuration)
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

    private static func serve(_ configuration: MockServer.Configuration) {
        let server: MockServer
        do {
            server = try MockServer(configuration: configuration)
        } catch {
            for problem in error.problems { emit("error: \(problem)", toStandardError: true) }
            fail("the contracts have \(error.problems.count) problem(s); `mock-server validate` lists them", code: 1)
        }
        // Process-wide settings are the executable's, not the library's: a closed stdout pipe must not
        // kill the server, and many clients need many descriptors.
        POSIX.ignoreBrokenPipes()
        let descriptors = POSIX.raiseDescriptorLimit()
        // Handle signals before the first connection can be accepted, so a SIGTERM sent right after the
        // first response is never lost.
        installSignalHandlers(server)
        do {
            try server.start()
        } catch {
            fail("cannot listen on \(server.address): \(error)", code: 1)
        }
        emit("listening on \(server.url)")
        let loops = configuration.threads == 1 ? "1 event loop" : "\(configuration.threads) event loops"
        emit("\(loops) (\(server.ioBackend)), up to \(descriptors.map(String.init) ?? "an unknown number of") open descriptors")
        emit(EndpointTable.render(server.contracts))
        dispatchMain()
    }

    /// SIGINT and SIGTERM stop accepting, let in-flight responses finish, and exit 0.
    private static func installSignalHandlers(_ server: MockServer) {
        for signal in POSIX.Signal.allCases {
            POSIX.ignore(signal)
            let source = DispatchSource.makeSignalSource(signal: signal.number, queue: .main)
            source.setEventHandler {
                server.stop()
                emit("stopped")
                POSIX.exit(0)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Keeps the signal sources alive; touched only on the main thread.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

    /// Unbuffered, so a parent process reading the first line sees it at once.
    private static func emit(_ text: String, toStandardError: Bool = false) {
        POSIX.writeLine(text, toStandardError: toStandardError)
    }

    private static func fail(_ message: String, code: Int32) -> Never {
        emit("mock-server: error: \(message)", toStandardError: true)
        POSIX.exit(code)
    }
}
