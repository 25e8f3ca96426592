import Recorder

/// The options of `mock-server record` and of `--proxy`: the backend, how long to wait for it, and where
/// and how the recording is written.
struct RecordOptions {
    /// `record --target` or `--proxy`, checked when parsed.
    var target: UpstreamTarget?
    /// `--record` while serving (always on for `record`).
    var record = false
    /// Output folders: `record`'s `--contracts`/`--fixtures`, or `--record-contracts`/`--record-fixtures` while serving.
    var contractsDirectory = "Recorded/Contracts"
    var fixturesDirectory = "Recorded/Fixtures"
    var merge = false
    /// `--redact-key`: JSON keys whose values the writer keeps out of the files.
    var redactedKeys: [String] = []
    /// `--upstream-timeout`, seconds.
    var upstreamTimeout = 30.0
    /// `--max-record-bytes`: larger bodies are relayed but not recorded.
    var maxRecordBytes = 50 * 1024 * 1024
    /// `--no-latency`: scenarios get no observed `latency`.
    var keepsLatency = true
    /// `--proxy-fallback`: requests an endpoint matches but cannot answer go to the backend too.
    var fallsBack = false

    /// The writer and recording these options describe; `extraHeaders` are the `--redact-header` names.
    /// - Parameter json: The flush report as one JSON object (`--log json`).
    func recording(extraHeaders: [String], json: Bool) -> Recording {
        let writer = RecordingWriter(contractsDirectory: contractsDirectory, fixturesDirectory: fixturesDirectory,
                                     redaction: .init(extraHeaders: extraHeaders, extraKeys: redactedKeys), merge: merge,
                                     keepsLatency: keepsLatency)
        return Recording(writer: writer, maxBodyBytes: maxRecordBytes, reportsJSON: json)
    }

    static func target(_ text: String, flag: String) throws(CommandLineOptions.UsageError) -> UpstreamTarget {
        do {
            return try UpstreamTarget(parsing: text)
        } catch {
            throw CommandLineOptions.UsageError("\(flag): \(error.description)")
        }
    }

    static func seconds(_ text: String, flag: String) throws(CommandLineOptions.UsageError) -> Double {
        guard let value = Double(text), value > 0, value <= 3_600 else {
            throw CommandLineOptions.UsageError("\(flag): '\(text)' is not a number of seconds in (0, 3600]")
        }
        return value
    }

    static func bytes(_ text: String, flag: String) throws(CommandLineOptions.UsageError) -> Int {
        guard let value = Int(text), value >= 0 else {
            throw CommandLineOptions.UsageError("\(flag): '\(text)' is not a number of bytes (0 or more)")
        }
        return value
    }
}
