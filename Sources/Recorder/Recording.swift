import HTTPCore

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
    private let exchanges = Locked<[RecordedExchange]>([])
    /// One write at a time: a flush on request and one at shutdown must not interleave their files.
    private let writing = Lock()

    public init(writer: RecordingWriter, maxBodyBytes: Int) {
        self.writer = writer
        self.maxBodyBytes = maxBodyBytes
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

    /// A line for people: what a flush wrote, or why it wrote nothing and that nothing is lost.
    public func describe(_ outcome: Outcome) -> String {
        switch outcome {
        case .written(let summary, let count):
            let skipped = summary.skipped.isEmpty ? ""
                : "; \(summary.skipped.count) not written, which a contract cannot describe: "
                    + summary.skipped.joined(separator: "; ")
            return "recording: wrote \(count) exchange\(count == 1 ? "" : "s") (\(summary.endpoints) endpoints, "
                + "\(summary.scenarios) scenarios, \(summary.contractFiles.count) contract and "
                + "\(summary.fixtureFiles.count) fixture files) to \(writer.contractsDirectory) and \(writer.fixturesDirectory)"
                + skipped
        case .failed(let reason, let count):
            return "recording: could not write to \(writer.contractsDirectory) and \(writer.fixturesDirectory): "
                + "\(reason); the \(count) exchange\(count == 1 ? " is" : "s are") kept, flush again once fixed"
        }
    }
}
