import ContractModel
import HTTPCore
import MockServer
import Recorder

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
        /// `verify --target <url>`: checks the contracts against the real backend.
        case verify
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
    /// `verify`.
    var verify = VerifyCommandOptions()

    /// `--log` was given (with `--quiet`, the access log stays as asked).
    var logGiven = false

    /// The help: commands, then each command's options from ``Flag/all``, then exit codes.
    static var usage: String {
        ([
            "USAGE: mock-server [serve] [options]",
            "       mock-server validate [--contracts <dir>] [--fixtures <dir>]",
            "       mock-server openapi export [--contracts <dir>] [--fixtures <dir>] [-o <file>]",
            "       mock-server openapi import <spec> --contracts <dir> --fixtures <dir> [--force]",
            "       mock-server record --target <url> [--contracts <dir>] [--fixtures <dir>] [options]",
            "       mock-server verify --target <url> [--contracts <dir>] [--fixtures <dir>] [options]",
            "",
            "Serves Fixtures/ as Contracts/ describe, on 127.0.0.1:8080 by default.",
            "",
            "OPTIONS (serve):",
        ] + Flag.helpLines(for: .serve) + Flag.helpLines(for: .serveWithProxy) + Flag.helpLines(for: .serveRecording) + [
            "",
            "SUBCOMMANDS:",
            "  validate             Check contracts and fixtures, list every problem, exit 0 or 1",
            "  openapi export       Write the contracts as an OpenAPI 3.1 JSON document (to -o <file>, else stdout);",
            "                       its x-mock extensions carry scenarios, states and resources",
            "  openapi import       Write one contract per tag and fixture files from an OpenAPI 3.0 or 3.1 document",
            "                       (JSON or YAML), then validate them; files edited since the last import are",
            "                       kept unless --force; prints what it could not express",
            "  record               Relay every request to --target <url> and record each exchange; written on",
            "                       POST /__mock/record/flush and at SIGINT/SIGTERM. Its options:",
        ] + Flag.helpLines(for: .record, indent: 4) + [
            "                       Never recorded: secrets (--redact-header, --redact-key); the response fields",
            "                       " + HeaderFilter.notRecorded,
            "  verify               Send each endpoint's success scenario (and each scenario with a \"verify\"",
            "                       request) to --target and report drift: status class, JSON shape, headers;",
            "                       exits 0 when nothing drifted, 1 on drift. Only GET, HEAD and OPTIONS unless",
            "                       --allow-writes. Its options:",
        ] + Flag.helpLines(for: .verify, indent: 4) + [
            "",
            "EXIT CODES: 0 fine, 1 contract problems (or a document import cannot read, or the port or a folder",
            "            unusable, or a recording that could not be written at shutdown), 2 usage errors.",
        ]).joined(separator: "\n")
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) { self.description = description }
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
            case "verify": command = .verify
            case "help": command = .help
            case "openapi":
                remaining = remaining.dropFirst()
                try parseOpenAPISubcommand(&remaining)
            default: throw UsageError("unknown subcommand '\(first)'; see --help")
            }
            if command != .openAPIImport && command != .openAPIExport { remaining = remaining.dropFirst() }
        }
        let subcommand = command
        var given: [(flag: Flag, typed: String)] = []
        while let name = remaining.popFirst() {
            guard let flag = Flag.named(name) else { throw UsageError("unknown option '\(name)'; see --help") }
            given.append((flag, name))
            var value: String?
            if flag.valueIsOptional {
                if let next = remaining.first, !next.hasPrefix("-") { value = remaining.popFirst() }
            } else if flag.takesValue {
                var words: [String] = []
                for _ in 0..<flag.valueWords {
                    guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                        throw UsageError("\(name) needs \(flag.value ?? "a value")")
                    }
                    words.append(next)
                }
                value = words.joined(separator: "\n")
            }
            try flag.apply(&self, value)
        }
        if quiet && !logGiven { configuration.logFormat = .off }
        try check(given, subcommand: subcommand)
    }

    /// Each flag given must belong where it was given: an option a command does not read would be silently
    /// ignored, so it is a usage error.
    private func check(_ given: [(flag: Flag, typed: String)], subcommand: Command) throws(UsageError) {
        let place: Flag.Place
        let name: String
        switch command == .listEndpoints ? command : subcommand {
        case .validate: (place, name) = (.validate, "validate")
        case .listEndpoints: (place, name) = (.listEndpoints, "--list-endpoints")
        case .openAPIExport: (place, name) = (.openAPIExport, "openapi export")
        case .openAPIImport: (place, name) = (.openAPIImport, "openapi import")
        case .record: (place, name) = (.record, "record")
        case .verify: (place, name) = (.verify, "verify")
        case .serve, .help, .version: (place, name) = (.serve, "serve")
        }
        for (flag, typed) in given where !flag.places.contains(place) {
            if place == .serve && flag.places.contains(.serveWithProxy) {
                if recording.target != nil { continue }
                throw UsageError("\(typed) needs --proxy <url>: the backend to pass requests to")
            }
            if place == .serve && flag.places.contains(.serveRecording) {
                if recording.record && recording.target != nil { continue }
                throw UsageError("\(typed) needs --record (with --proxy <url>), or `mock-server record`")
            }
            if let misplaced = flag.misplaced, misplaced.in.contains(place) {
                throw UsageError(misplaced.text.hasPrefix("-") || misplaced.text.hasPrefix("record") ? misplaced.text
                    : "\(typed) \(misplaced.text)")
            }
            let takes = Flag.all.filter { $0.places.contains(place) && $0.name != "--help" && $0.name != name }
                .map(\.name).sorted()
            throw UsageError("\(name) does not take \(typed); it takes " + takes.joined(separator: ", "))
        }
        if command == .openAPIImport {
            for required in ["--contracts", "--fixtures"] where !given.contains(where: { $0.flag.name == required }) {
                throw UsageError("openapi import needs \(required) <dir>: the folder to write into")
            }
        }
        if command == .record && recording.target == nil {
            throw UsageError("record needs --target <url>: the backend to relay to, e.g. http://127.0.0.1:9000")
        }
        if command == .verify && recording.target == nil {
            throw UsageError("verify needs --target <url>: the backend the contracts describe, e.g. https://api.example.com")
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
                throw UsageError("openapi import needs the document to read: openapi import <spec> "
                    + "--contracts <dir> --fixtures <dir>")
            }
            specFile = spec
        case let other?:
            throw UsageError("unknown openapi subcommand '\(other)'; use export or import")
        case nil:
            throw UsageError("openapi needs a subcommand: export or import")
        }
    }
}
