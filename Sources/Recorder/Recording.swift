import HTTPCore
import MockServer

/// The exchanges recorded so far, shared by the relay threads, and their writing through ``RecordingWriter``.
/// A write that fails keeps everything for the next one; each write is given everything recorded so far.
public final class Recording: Sendable {
    /// What one flush did.
    public enum Outcome: Sendable {
        /// `exchanges`: how many were written (those a contract cannot describe are named in the summary).
        case written(RecordingWriter.Summary, exchanges: Int)
        /// `exchanges`: how many are kept for the next flush.
        case failed(reason: String, exchanges: Int)
    }

    public let writer: RecordingWriter
    /// Exchanges whose request or response body is larger are relayed but not recorded (`--max-record-bytes`).
    public let maxBodyBytes: Int
    /// The flush report as one JSON object (`--log json`) rather than lines for people.
    public let reportsJSON: Bool
    private let exchanges = Locked<[RecordedExchange]>([])
    /// One write at a time: a flush on request and one at shutdown must not interleave their files.
    private let writing = Lock()

    public init(writer: RecordingWriter, maxBodyBytes: Int, reportsJSON: Bool = false) {
        self.writer = writer
        self.maxBodyBytes = maxBodyBytes
        self.reportsJSON = reportsJSON
    }

    /// Records `exchange`, unless one of its bodies exceeds ``maxBodyBytes``.
    /// - Returns: Why it was not recorded, or `nil`.
    @discardableResult
    public func add(_ exchange: RecordedExchange) -> String? {
        for (what, size) in [("request", exchange.requestBody.count), ("response", exchange.responseBody.count)]
        where size > maxBodyBytes {
            return "\(exchange.method) \(exchange.path): not recorded, its \(what) body of \(size) bytes exceeds "
                + "--max-record-bytes \(maxBodyBytes) (it was relayed intact)"
        }
        exchanges.withValue { $0.append(exchange) }
        return nil
    }

    /// How many exchanges are recorded.
    public var count: Int { exchanges.withValue { $0.count } }

    /// The exchanges recorded so far, oldest first.
    public var recorded: [RecordedExchange] { exchanges.current }

    /// Writes every exchange recorded so far.
    public func flush() -> Outcome {
        writing.withLock {
            let all = exchanges.current
            do {
                let summary = try writer.write(all)
                return .written(summary, exchanges: all.count - summary.skipped.count)
            } catch {
                return .failed(reason: "\(error)", exchanges: all.count)
            }
        }
    }

    /// What a flush wrote, or why it wrote nothing and that nothing is lost: a line for people, and under it
    /// a line per endpoint (its rules, sequences and why, ids templated, auth) and the secrets kept out (counts,
    /// never values).
    public func describe(_ outcome: Outcome) -> String {
        switch outcome {
        case .written(let summary, let count):
            let skipped = summary.skipped.isEmpty ? ""
                : "; \(summary.skipped.count) not written, which a contract cannot describe: "
                    + summary.skipped.joined(separator: "; ")
            let head = "recording: wrote \(count) exchange\(count == 1 ? "" : "s") (\(summary.endpoints) endpoints, "
                + "\(summary.scenarios) scenarios, \(summary.contractFiles.count) contract and "
                + "\(summary.fixtureFiles.count) fixture files) to \(writer.contractsDirectory) and \(writer.fixturesDirectory)"
                + skipped
            let secrets = "  secrets: \(summary.credentialFieldsDropped) credential header field"
                + "\(summary.credentialFieldsDropped == 1 ? "" : "s") left out, \(summary.redactedValues) value"
                + "\(summary.redactedValues == 1 ? "" : "s") redacted in fixtures"
            return ([head] + summary.endpointReports.map { "  " + $0.line } + [secrets]).joined(separator: "\n")
        case .failed(let reason, let count):
            return "recording: could not write to \(writer.contractsDirectory) and \(writer.fixturesDirectory): "
                + "\(reason); the \(count) exchange\(count == 1 ? " is" : "s are") kept, flush again once fixed"
        }
    }

    /// The flush report as one JSON object, for `--log json`.
    public func describeJSON(_ outcome: Outcome) -> String {
        let report: FlushReport
        switch outcome {
        case .written(let summary, let count):
            report = FlushReport(event: "recording.flush", written: true, exchanges: count, reason: nil,
                                 contractFiles: summary.contractFiles, fixtureFiles: summary.fixtureFiles,
                                 endpoints: summary.endpointReports, skipped: summary.skipped,
                                 credentialFieldsDropped: summary.credentialFieldsDropped,
                                 redactedValues: summary.redactedValues)
        case .failed(let reason, let count):
            report = FlushReport(event: "recording.flush", written: false, exchanges: count, reason: reason,
                                 contractFiles: [], fixtureFiles: [], endpoints: [], skipped: [],
                                 credentialFieldsDropped: 0, redactedValues: 0)
        }
        return String(decoding: ServerJSON.encode(report), as: UTF8.self)
    }

    private struct FlushReport: Encodable {
        let event: String
        let written: Bool
        let exchanges: Int
        let reason: String?
        let contractFiles: [String]
        let fixtureFiles: [String]
        let endpoints: [EndpointReport]
        let skipped: [String]
        let credentialFieldsDropped: Int
        let redactedValues: Int
    }
}
