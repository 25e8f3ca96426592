import ContractModel
import HTTPCore
import MockServer

extension Flag {
    private typealias UsageError = CommandLineOptions.UsageError

    /// Every option, in the order the help lists them.
    static let all: [Flag] = [
        Flag(names: ["--host"], value: "<address>",
             help: "Address to bind: 127.0.0.1 (default), ::1, or 0.0.0.0 / :: for devices on the LAN",
             places: [.serve, .record]) { $0.configuration.host = $1 ?? "" },
        Flag(names: ["--port"], value: "<n>", help: "Port to bind (default 8080; 0 picks a free port and prints it)",
             places: [.serve, .record]) { options, text throws(UsageError) in
            guard let port = UInt16(text ?? "") else { throw UsageError("--port: '\(text ?? "")' is not 0...65535") }
            options.configuration.port = port
        },
        Flag(names: ["--target"], value: "<url>",
             help: "The backend to relay to and record (record), or to check the contracts against (verify): http:// or "
                + "https://", places: [.record, .verify],
             misplaced: ([.serve], "--target belongs to `mock-server record`; to pass unmocked requests through while "
                + "serving, use --proxy <url>")) { options, text throws(UsageError) in
            options.recording.target = try RecordOptions.target(text ?? "", flag: "--target")
        },
        Flag(names: ["--contracts"], value: "<dir>",
             help: "Folder of contract files (default ./Contracts; for record, where it writes: ./Recorded/Contracts)",
             places: [.serve, .validate, .listEndpoints, .openAPIExport, .openAPIImport, .record, .verify]) { options, folder in
            if options.command == .record { options.recording.contractsDirectory = folder ?? "" }
            else { options.configuration.contractsDirectory = folder ?? "" }
        },
        Flag(names: ["--fixtures"], value: "<dir>",
             help: "Folder of fixture files (default ./Fixtures; for record, where it writes: ./Recorded/Fixtures)",
             places: [.serve, .validate, .listEndpoints, .openAPIExport, .openAPIImport, .record, .verify]) { options, folder in
            if options.command == .record { options.recording.fixturesDirectory = folder ?? "" }
            else { options.configuration.fixturesDirectory = folder ?? "" }
        },
        Flag(names: ["--scenario"], value: "<name>", help: "Default scenario for every endpoint that has one of this name",
             places: [.serve, .listEndpoints]) { $0.configuration.scenario = $1 },
        Flag(names: ["--log"], value: "<format>",
             help: "Access log: text, json or off (default text). With json, standard output carries only JSON "
                + "lines, the listening address first",
             places: [.serve, .record]) { options, text throws(UsageError) in
            guard let format = AccessLog.Format(rawValue: text ?? "") else {
                throw UsageError("--log: '\(text ?? "")' is not one of text, json, off")
            }
            options.configuration.logFormat = format
            options.logGiven = true
        },
        Flag(names: ["--quiet"], value: nil,
             help: "Print only the listening line (and no access log unless --log is given)",
             places: [.serve, .record]) { options, _ in options.quiet = true },
        Flag(names: ["--allow-host"], value: "<name>", help: "Also answer the admin API under this host name (repeatable)",
             places: [.serve, .record]) { $0.configuration.allowedHosts.append($1 ?? "") },
        Flag(names: ["--admin-token"], value: "<t>",
             help: "Require X-Mock-Admin-Token: <t> on every admin request (made up and printed when --host reaches "
                + "beyond loopback and none is given)",
             places: [.serve, .record]) { options, token throws(UsageError) in
            guard let token, !token.isEmpty, token.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw UsageError("--admin-token: use visible ASCII characters, no spaces")
            }
            options.configuration.adminToken = token
        },
        Flag(names: ["--redact-header"], value: "<h>",
             help: "Store this header's value in the journal only as its length, and keep it out of recordings "
                + "(repeatable; Authorization, Proxy-Authorization, Cookie and Set-Cookie always are)",
             places: [.serve, .record]) { $0.configuration.redactedHeaders.append($1 ?? "") },
        Flag(names: ["--journal-secrets"], value: nil, help: "Keep credential header values in the journal as sent",
             places: [.serve]) { options, _ in options.configuration.journalSecrets = true },
        Flag(names: ["--latency"], value: "<spec>",
             help: "Wait before every response, on top of its scenario's: milliseconds (200), a range (100-500) or "
                + "lognormal:<median ms>:<sigma> (lognormal:80:0.5)",
             places: [.serve]) { options, text throws(UsageError) in
            guard let latency = Latency(text: text ?? "") else {
                throw UsageError("--latency: '\(text ?? "")' is not milliseconds (200), a range (100-500) "
                    + "or lognormal:<median ms>:<sigma>, at most \(Latency.maximum) ms")
            }
            options.configuration.latency = latency
        },
        Flag(names: ["--seed"], value: "<n>", help: "Seed the latency draws, so a run's waits can be replayed",
             places: [.serve]) { options, text throws(UsageError) in
            guard let seed = UInt64(text ?? "") else { throw UsageError("--seed: '\(text ?? "")' is not 0 or more") }
            options.configuration.seed = seed
        },
        Flag(names: ["--conditions"], value: "<p>",
             help: "Lay a network over every request: a profile (edge, 3g, lte, wifi, train) or a JSON file with "
                + "latency, bandwidth, failurePercent and fault",
             places: [.serve]) { options, text throws(UsageError) in
            do throws(ConditionProfileError) {
                options.configuration.conditions = try ConditionProfile.named(text ?? "")
            } catch {
                throw UsageError("--conditions: \(error.message)")
            }
        },
        Flag(names: ["--bandwidth"], value: "<b>",
             help: "Send every response body at most this fast: edge, 3g, lte, wifi (presets with their latency), "
                + "or bytes per second",
             places: [.serve]) { options, text throws(UsageError) in
            guard let bandwidth = Bandwidth(text: text ?? "") else {
                throw UsageError("--bandwidth: '\(text ?? "")' is not one of "
                    + Bandwidth.presets.map(\.name).joined(separator: ", ") + ", or bytes per second")
            }
            options.configuration.bandwidth = bandwidth
        },
        Flag(names: ["--persist"], value: "<dir>",
             help: "Keep resources' items (of requests without X-Mock-Session) in <dir> across restarts: one JSON "
                + "file per resource, written before each change is answered",
             places: [.serve]) { $0.configuration.persistDirectory = $1 },
        Flag(names: ["--cors"], value: "[<origin>]",
             help: "Answer CORS preflights and let web pages read mock responses: from any origin, or only from each "
                + "<origin> given (repeatable); never the admin API",
             places: [.serve]) { options, origin throws(UsageError) in
            if let origin {
                guard origin.hasPrefix("http://") || origin.hasPrefix("https://") else {
                    throw UsageError("--cors: '\(origin)' is not an origin such as http://localhost:3000")
                }
                options.configuration.cors = .origins((options.configuration.cors?.origins ?? []) + [origin])
            } else if options.configuration.cors == nil {
                options.configuration.cors = .anyOrigin
            }
        },
        Flag(names: ["--ws-max-message"], value: "<n>",
             help: "Largest message a WebSocket client may send, in bytes (default 1048576); a larger one closes the "
                + "socket with 1009",
             places: [.serve]) { options, text throws(UsageError) in
            let bytes = try RecordOptions.bytes(text ?? "", flag: "--ws-max-message")
            guard (1...(1 << 30)).contains(bytes) else {
                throw UsageError("--ws-max-message: '\(bytes)' is not 1...1073741824 (1 GiB)")
            }
            options.configuration.webSocketLimits.maxMessageBytes = bytes
        },
        Flag(names: ["--ws-idle"], value: "<s>",
             help: "Close a WebSocket with 1001 after this many seconds without a message either way (default 300)",
             places: [.serve]) { options, text throws(UsageError) in
            let seconds = try RecordOptions.seconds(text ?? "", flag: "--ws-idle")
            options.configuration.webSocketLimits.idleSeconds = max(1, Int(seconds.rounded(.up)))
        },
        Flag(names: ["--threads"], value: "<n>",
             help: "Event-loop threads (default: one per CPU the process may use, at most 4)",
             places: [.serve, .record]) { options, text throws(UsageError) in
            guard let threads = Int(text ?? ""), (1...64).contains(threads) else {
                throw UsageError("--threads: '\(text ?? "")' is not 1...64")
            }
            options.configuration.threads = threads
        },
        Flag(names: ["--io"], value: "<backend>",
             help: "Readiness API: epoll (Linux), kqueue (macOS) or poll (default: the platform's best, or "
                + "$MOCK_SERVER_IO)",
             places: [.serve, .record]) { options, text throws(UsageError) in
            guard let backend = IOBackend(name: text ?? ""), backend.isAvailable else {
                let available = IOBackend.available.map(\.description).joined(separator: ", ")
                throw UsageError("--io: '\(text ?? "")' is not available here; use one of \(available)")
            }
            options.configuration.io = backend
        },
        Flag(names: ["--proxy"], value: "<url>",
             help: "Pass requests no endpoint serves, and scenarios with \"proxy\": true, to this http:// or https:// "
                + "backend (its base path is joined with the request's)",
             places: [.serve], misplaced: ([.record], "record takes --target <url>, not --proxy")) { options, text throws(UsageError) in
            options.recording.target = try RecordOptions.target(text ?? "", flag: "--proxy")
        },
        Flag(names: ["--proxy-fallback"], value: nil,
             help: "With --proxy: also pass on requests an endpoint matches but cannot answer (no fixture for them, "
                + "a method it lacks, no when rule holding)",
             places: [.serveWithProxy]) { options, _ in options.recording.fallsBack = true },
        Flag(names: ["--record"], value: nil,
             help: "With --proxy: record the proxied exchanges, written on POST /__mock/record/flush and at "
                + "SIGINT/SIGTERM to --record-contracts and --record-fixtures",
             places: [.serveWithProxy]) { options, _ in options.recording.record = true },
        Flag(names: ["--upstream-timeout"], value: "<s>",
             help: "Seconds to connect to the backend, and between two reads of its response, before answering 502 "
                + "(default 30)",
             places: [.serveWithProxy, .record]) { options, text throws(UsageError) in
            options.recording.upstreamTimeout = try RecordOptions.seconds(text ?? "", flag: "--upstream-timeout")
        },
        Flag(names: ["--record-contracts"], value: "<dir>",
             help: "With --proxy --record: where contracts are written (default ./Recorded/Contracts)",
             places: [.serveRecording, .record]) { $0.recording.contractsDirectory = $1 ?? "" },
        Flag(names: ["--record-fixtures"], value: "<dir>",
             help: "With --proxy --record: where fixtures are written (default ./Recorded/Fixtures)",
             places: [.serveRecording, .record]) { $0.recording.fixturesDirectory = $1 ?? "" },
        Flag(names: ["--merge"], value: nil,
             help: "Add to the contracts already in the folders instead of refusing to write over them",
             places: [.serveRecording, .record]) { options, _ in options.recording.merge = true },
        Flag(names: ["--redact-key"], value: "<k>", help: "Keep this JSON key's values out of the files (repeatable)",
             places: [.serveRecording, .record]) { $0.recording.redactedKeys.append($1 ?? "") },
        Flag(names: ["--no-latency"], value: nil,
             help: "Write no observed latency into the scenarios (by default each gets the time its responses took "
                + "to start: one sample as is, several fitted as lognormal:<median>:<sigma>)",
             places: [.serveRecording, .record]) { options, _ in options.recording.keepsLatency = false },
        Flag(names: ["--max-record-bytes"], value: "<n>",
             help: "Relay larger bodies but do not record them (default 52428800, 50 MiB)",
             places: [.serveRecording, .record]) { options, text throws(UsageError) in
            options.recording.maxRecordBytes = try RecordOptions.bytes(text ?? "", flag: "--max-record-bytes")
        },
        Flag(names: ["-o", "--output"], value: "<file>",
             help: "openapi export: write the document to this file (standard output without it)",
             places: [.openAPIExport], misplaced: ([.serve], "belongs to the openapi subcommands; see --help")) {
            $0.outputFile = $1
        },
        Flag(names: ["--force"], value: nil, help: "openapi import: overwrite files edited since the last import",
             places: [.openAPIImport], misplaced: ([.serve], "belongs to the openapi subcommands; see --help")) { options, _ in
            options.force = true
        },
        Flag(names: ["--list-endpoints"], value: nil,
             help: "Load and check the contracts like the server, print every endpoint and exit",
             places: [.serve, .listEndpoints]) { options, _ in options.command = .listEndpoints },
        Flag(names: ["--version"], value: nil, help: "Print the version and exit",
             places: [.serve]) { options, _ in options.command = .version },
        Flag(names: ["--header"], value: "<field>",
             help: "verify: send this header field with every request, as 'Name: value' (repeatable); a ${NAME} in it "
                + "is read from the environment, so a token stays off the command line: --header 'Authorization: Bearer "
                + "${TOKEN}'. Never printed or written",
             places: [.verify]) { options, text throws(UsageError) in
            try options.verify.addHeader(text ?? "")
        },
        Flag(names: ["--allow-writes"], value: nil,
             help: "verify: also send POST, PUT, PATCH and DELETE (in contract order); without it only GET, HEAD, OPTIONS",
             places: [.verify]) { options, _ in options.verify.options.allowWrites = true },
        Flag(names: ["--only"], value: "<id>", help: "verify: only this endpoint (repeatable)",
             places: [.verify]) { options, id in options.verify.options.only.insert(id ?? "") },
        Flag(names: ["--strict"], value: nil,
             help: "verify: keys only the backend's answer has are drift, not notes",
             places: [.verify]) { options, _ in options.verify.options.strict = true },
        Flag(names: ["--timeout"], value: "<s>",
             help: "verify: seconds to connect, and between two reads of an answer (default 10)",
             places: [.verify]) { options, text throws(UsageError) in
            options.verify.options.timeout = try RecordOptions.seconds(text ?? "", flag: "--timeout")
        },
        Flag(names: ["--budget"], value: "<s>",
             help: "verify: seconds for the whole run; what is not sent by then is reported not verified (default 300)",
             places: [.verify]) { options, text throws(UsageError) in
            options.verify.options.budget = try RecordOptions.seconds(text ?? "", flag: "--budget")
        },
        Flag(names: ["--concurrency"], value: "<n>", help: "verify: requests in flight at once (default 1)",
             places: [.verify]) { options, text throws(UsageError) in
            guard let count = Int(text ?? ""), (1...64).contains(count) else {
                throw UsageError("--concurrency: '\(text ?? "")' is not 1...64")
            }
            options.verify.options.concurrency = count
        },
        Flag(names: ["--report"], value: "<junit|json> <file>",
             help: "verify: also write the report as JUnit XML (for CI) or JSON to <file> (repeatable)",
             places: [.verify], valueWords: 2) { options, text throws(UsageError) in
            try options.verify.addReport(text ?? "")
        },
        Flag(names: ["-h", "--help"], value: nil, help: "Print this help and exit",
             places: [.serve, .validate, .listEndpoints, .openAPIExport, .openAPIImport, .record, .verify]) { options, _ in
            options.command = .help
        },
    ]
}
