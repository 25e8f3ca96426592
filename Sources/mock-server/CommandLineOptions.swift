import ContractModel
import HTTPCore
import MockServer

/// The command line of `mock-server`, parsed by hand (no third-party argument parser).
struct CommandLineOptions {
    enum Command {
        case serve
        case validate
        case listEndpoints
        case help
        case version
        /// `openapi export`: write the loaded contracts as an OpenAPI 3.1 document.
        case openAPIExport
        /// `openapi import <spec>`: write contracts and fixtures from an OpenAPI document.
        case openAPIImport
        /// `record --target <url>`: a reverse proxy that records what it relays.
        case record
    }

    var command = Command.serve
    var configuration = MockServer.Configuration(logFormat: .text)
    /// Only the listening line on standard output (and no access log unless `--log` asks for one).
    var quiet = false
    /// `openapi export -o <file>`: where the document goes (standard output without it).
    var outputFile: String?
    /// `openapi import <spec>`: the document to read.
    var specFile: String?
    /// `openapi import --force`: overwrite files edited since the last import.
    var force = false
    /// `record` and `--proxy`.
    var recording = RecordOptions()

    static let usage = """
        USAGE: mock-server [serve] [options]
               mock-server validate [--contracts <dir>] [--fixtures <dir>]
               mock-server openapi export [--contracts <dir>] [--fixtures <dir>] [-o <file>]
               mock-server openapi import <spec> --contracts <dir> --fixtures <dir> [--force]
               mock-server record --target <url> [--contracts <dir>] [--fixtures <dir>] [options]

        Serves Fixtures/ as Contracts/ describe, on 127.0.0.1:8080 by default.

        OPTIONS:
          --host <address>     Address to bind: 127.0.0.1 (default), ::1, or 0.0.0.0 / :: for devices on the LAN
          --port <n>           Port to bind (default 8080; 0 picks a free port and prints it)
          --contracts <dir>    Folder of contract files (default ./Contracts)
          --fixtures <dir>     Folder of fixture files (default ./Fixtures)
          --scenario <name>    Default scenario for every endpoint that has one of this name
          --log <format>       Access log: text, json or off (default text). With json, standard output
                               carries only JSON lines, the listening address first
          --quiet              Print only the listening line (and no access log unless --log is given)
          --allow-host <name>  Also answer the admin API under this host name (repeatable)
          --admin-token <t>    Require X-Mock-Admin-Token: <t> on every admin request (made up and printed
                               when --host reaches beyond loopback and none is given)
          --redact-header <h>  Store this header's value in the journal only as its length (repeatable;
                               Authorization, Proxy-Authorization, Cookie and Set-Cookie always are)
          --journal-secrets    Keep credential header values in the journal as sent
          --latency <spec>     Wait before every response, on top of its scenario's: milliseconds (200),
                               a range (100-500) or lognormal:<median ms>:<sigma> (lognormal:80:0.5)
          --seed <n>           Seed the latency draws, so a run's waits can be replayed
          --conditions <p>     Lay a network over every request: a profile (edge, 3g, lte, wifi, train) or a
                               JSON file with latency, bandwidth, failurePercent and fault
          --bandwidth <b>      Send every response body at most this fast: edge, 3g, lte, wifi (presets
                               with their latency), or bytes per second
          --persist <dir>      Keep resources' items (of requests without X-Mock-Session) in <dir> across
                               restarts: one JSON file per resource, written before each change is answered
          --cors [<origin>]    Answer CORS preflights and let web pages read mock responses: from any
                               origin, or only from each <origin> given (repeatable); never the admin API
          --threads <n>        Event-loop threads (default: one per CPU the process may use, at most 4)
          --io <backend>       Readiness API: epoll (Linux), kqueue (macOS) or poll (default: the platform's
                               best, or $MOCK_SERVER_IO)
          --proxy <url>        Pass requests no endpoint serves, and scenarios with "proxy": true, to this
                               http:// or https:// backend (its base path is joined with the request's)
          --record             With --proxy: record the proxied exchanges, written on POST
                               /__mock/record/flush and at SIGINT/SIGTERM to --record-contracts <dir>
                               (default ./Recorded/Contracts) and --record-fixtures <dir> (./Recorded/Fixtures)
          --upstream-timeout <s>  Seconds to connect to the backend, and between two reads of its response,
                               before answering 502 (default 30)
          --list-endpoints     Load and check the contracts like the server, print every endpoint and exit
          --version            Print the version and exit
          -h, --help           Print this help and exit

        SUBCOMMANDS:
          serve                Run the server (the default)
          validate             Check contracts and fixtures, list every problem, exit 0 or 1
          openapi export       Write the contracts as an OpenAPI 3.1 JSON document (to -o <file>, else stdout);
                               its x-mock extensions carry scenarios, states and resources
          openapi import       Write one contract per tag and fixture files from an OpenAPI 3.0 or 3.1 document
                               (JSON or YAML), then validate them; files edited since the last import are
                               kept unless --force; prints what it could not express
          record               Relay every request to --target <url> (http:// or https://) and record each exchange;
                               written on POST /__mock/record/flush and at SIGINT/SIGTERM to --contracts
                               (default ./Recorded/Contracts) and --fixtures (default ./Recorded/Fixtures).
                               Takes --host, --port, --log, --quiet, --threads, --io, --allow-host,
                               --admin-token, --upstream-timeout, and (these also with --proxy --record):
                 --merge              Add to the contracts already in the folders instead of refusing to
                                      write over them
                 --redact-header <h>  Also keep this header's values out of the files (repeatable)
                 --redact-key <k>     Keep this JSON key's values out of the files (repeatable)
                 --max-record-bytes <n>  Relay larger bodies but do not record them (default 52428800, 50 MiB)

        EXIT CODES: 0 fine, 1 contract problems (or a document import cannot read, or the port or a folder
                    unusable, or a recording that could not be written at shutdown), 2 usage errors.
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        if let first = remaining.first, !first.hasPrefix("-") {
            switch first {
            case "serve": command = .serve
            case "validate": command = .validate
            case "record":
                command = .record
                recording.record = true
            case "help": command = .help
            case "openapi":
                remaining = remaining.dropFirst()
                try parseOpenAPISubcommand(&remaining)
            default: throw UsageError(description: "unknown subcommand '\(first)'; see --help")
            }
            if command != .openAPIImport && command != .openAPIExport { remaining = remaining.dropFirst() }
        }
        var given: [String] = []
        var logGiven = false
        while let flag = remaining.popFirst() {
            given.append(flag)
            switch flag {
            case "-h", "--help": command = .help
            case "-o", "--output": outputFile = try value(for: flag, from: &remaining)
            case "--force": force = true
            case "--version": command = .version
            case "--list-endpoints": command = .listEndpoints
            case "--host": configuration.host = try value(for: flag, from: &remaining)
            case "--port":
                let text = try value(for: flag, from: &remaining)
                guard let port = UInt16(text) else { throw UsageError(description: "--port: '\(text)' is not 0...65535") }
                configuration.port = port
            case "--contracts":
                let folder = try value(for: flag, from: &remaining)
                if command == .record { recording.contractsDirectory = folder } else { configuration.contractsDirectory = folder }
            case "--fixtures":
                let folder = try value(for: flag, from: &remaining)
                if command == .record { recording.fixturesDirectory = folder } else { configuration.fixturesDirectory = folder }
            case "--target", "--proxy":
                guard (flag == "--target") == (command == .record) else {
                    throw UsageError(description: flag == "--target" ? "--target belongs to `mock-server record`; "
                        + "to pass unmocked requests through while serving, use --proxy <url>"
                        : "record takes --target <url>, not --proxy")
                }
                recording.target = try RecordOptions.target(try value(for: flag, from: &remaining), flag: flag)
            case "--record": recording.record = true
            case "--record-contracts": recording.contractsDirectory = try value(for: flag, from: &remaining)
            case "--record-fixtures": recording.fixturesDirectory = try value(for: flag, from: &remaining)
            case "--merge": recording.merge = true
            case "--redact-key": recording.redactedKeys.append(try value(for: flag, from: &remaining))
            case "--upstream-timeout":
                recording.upstreamTimeout = try RecordOptions.seconds(try value(for: flag, from: &remaining), flag: flag)
            case "--max-record-bytes":
                recording.maxRecordBytes = try RecordOptions.bytes(try value(for: flag, from: &remaining), flag: flag)
            case "--scenario": configuration.scenario = try value(for: flag, from: &remaining)
            case "--log":
                let text = try value(for: flag, from: &remaining)
                guard let format = AccessLog.Format(rawValue: text) else {
                    throw UsageError(description: "--log: '\(text)' is not one of text, json, off")
                }
                configuration.logFormat = format
                logGiven = true
            case "--quiet": quiet = true
            case "--threads":
                let text = try value(for: flag, from: &remaining)
                guard let threads = Int(text), (1...64).contains(threads) else {
                    throw UsageError(description: "--threads: '\(text)' is not 1...64")
                }
                configuration.threads = threads
            case "--redact-header": configuration.redactedHeaders.append(try value(for: flag, from: &remaining))
            case "--journal-secrets": configuration.journalSecrets = true
            case "--latency":
                let text = try value(for: flag, from: &remaining)
                guard let latency = Latency(text: text) else {
                    throw UsageError(description: "--latency: '\(text)' is not milliseconds (200), a range (100-500) "
                        + "or lognormal:<median ms>:<sigma>, at most \(Latency.maximum) ms")
                }
                configuration.latency = latency
            case "--conditions":
                let text = try value(for: flag, from: &remaining)
                do {
                    configuration.conditions = try ConditionProfile.named(text)
                } catch {
                    throw UsageError(description: "--conditions: \(error.message)")
                }
            case "--bandwidth":
                let text = try value(for: flag, from: &remaining)
                guard let bandwidth = Bandwidth(text: text) else {
                    throw UsageError(description: "--bandwidth: '\(text)' is not one of "
                        + Bandwidth.presets.map(\.name).joined(separator: ", ") + ", or bytes per second")
                }
                configuration.bandwidth = bandwidth
            case "--seed":
                let text = try value(for: flag, from: &remaining)
                guard let seed = UInt64(text) else { throw UsageError(description: "--seed: '\(text)' is not 0 or more") }
                configuration.seed = seed
            case "--persist": configuration.persistDirectory = try value(for: flag, from: &remaining)
            case "--allow-host": configuration.allowedHosts.append(try value(for: flag, from: &remaining))
            case "--admin-token":
                let token = try value(for: flag, from: &remaining)
                guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                    throw UsageError(description: "--admin-token: use visible ASCII characters, no spaces")
                }
                configuration.adminToken = token
            case "--cors":
                if let next = remaining.first, !next.hasPrefix("-") {
                    remaining = remaining.dropFirst()
                    guard next.hasPrefix("http://") || next.hasPrefix("https://") else {
                        throw UsageError(description: "--cors: '\(next)' is not an origin such as http://localhost:3000")
                    }
                    configuration.cors = .origins((configuration.cors?.origins ?? []) + [next])
                } else if configuration.cors == nil {
                    configuration.cors = .anyOrigin
                }
            case "--io":
                let text = try value(for: flag, from: &remaining)
                guard let backend = IOBackend(name: text), backend.isAvailable else {
                    let available = IOBackend.available.map(\.description).joined(separator: ", ")
                    throw UsageError(description: "--io: '\(text)' is not available here; use one of \(available)")
                }
                configuration.io = backend
            default:
                throw UsageError(description: "unknown option '\(flag)'; see --help")
            }
        }
        if quiet && !logGiven { configuration.logFormat = .off }
        try checkFlags(given)
    }

    /// `validate` and `--list-endpoints` read contracts and fixtures only: any other option would be
    /// silently ignored, so it is a usage error.
    private func checkFlags(_ given: [String]) throws(UsageError) {
        let name: String
        var allowed: Set = ["--contracts", "--fixtures", "-h", "--help"]
        switch command {
        case .validate:
            name = "validate"
        case .openAPIExport:
            name = "openapi export"
            allowed.formUnion(["-o", "--output"])
        case .openAPIImport:
            name = "openapi import"
            allowed.insert("--force")
            for required in ["--contracts", "--fixtures"] where !given.contains(required) {
                throw UsageError(description: "openapi import needs \(required) <dir>: the folder to write into")
            }
        case .listEndpoints:
            name = "--list-endpoints"
            allowed.formUnion(["--list-endpoints", "--scenario"])
        case .record:
            name = "record"
            allowed.formUnion(["--target", "--host", "--port", "--log", "--quiet", "--threads", "--io", "--allow-host",
                               "--admin-token", "--redact-header", "--upstream-timeout"] + RecordOptions.recordingFlags)
            guard recording.target != nil else {
                throw UsageError(description: "record needs --target <url>: the backend to relay to, e.g. http://127.0.0.1:9000")
            }
        case .serve, .help, .version:
            if let extra = given.first(where: { ["-o", "--output", "--force"].contains($0) }) {
                throw UsageError(description: "\(extra) belongs to the openapi subcommands; see --help")
            }
            if recording.target == nil, let extra = given.first(where: RecordOptions.backendFlags.contains) {
                throw UsageError(description: "\(extra) needs --proxy <url>: the backend to pass requests to")
            }
            if !recording.record, let extra = given.first(where: RecordOptions.recordingFlags.contains) {
                throw UsageError(description: "\(extra) needs --record (with --proxy <url>), or `mock-server record`")
            }
            return
        }
        if let extra = given.first(where: { !allowed.contains($0) }) {
            let takes = allowed.filter { $0.hasPrefix("--") && $0 != "--help" && $0 != name }.sorted()
            throw UsageError(description: "\(name) does not take \(extra); it takes " + takes.joined(separator: ", "))
        }
    }

    /// `openapi export` or `openapi import <spec>`; the options follow.
    private mutating func parseOpenAPISubcommand(_ remaining: inout ArraySlice<String>) throws(UsageError) {
        switch remaining.popFirst() {
        case "export":
            command = .openAPIExport
        case "import":
            command = .openAPIImport
            guard let spec = remaining.popFirst(), !spec.hasPrefix("-") else {
                throw UsageError(description: "openapi import needs the document to read: openapi import <spec> "
                    + "--contracts <dir> --fixtures <dir>")
            }
            specFile = spec
        case let other?:
            throw UsageError(description: "unknown openapi subcommand '\(other)'; use export or import")
        case nil:
            throw UsageError(description: "openapi needs a subcommand: export or import")
        }
    }

    private func value(for flag: String, from remaining: inout ArraySlice<String>) throws(UsageError) -> String {
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
            throw UsageError(description: "\(flag) needs a value")
        }
        return value
    }
}
