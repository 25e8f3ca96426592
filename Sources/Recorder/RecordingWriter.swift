/// Turns recorded exchanges into contracts and fixtures on disk. (Interface only; being written.)
public struct RecordingWriter: Sendable {
    /// What is kept out of the files: header names and JSON keys whose values are secrets.
    public struct Redaction: Sendable {
        public var headers: [String]
        public var keys: [String]
        /// The defaults plus `extraHeaders` (`--redact-header`) and `extraKeys` (`--redact-key`).
        public init(extraHeaders: [String] = [], extraKeys: [String] = []) {
            headers = extraHeaders
            keys = extraKeys
        }
    }

    /// What one write did, for the log line after a flush.
    public struct Summary: Sendable, Equatable {
        public var contractFiles: [String] = []
        public var fixtureFiles: [String] = []
        public var endpoints = 0
        public var scenarios = 0
    }

    public let contractsDirectory: String
    public let fixturesDirectory: String
    public let redaction: Redaction
    /// Adds to the contracts already in the folders instead of refusing to write over them.
    public let merge: Bool

    public init(contractsDirectory: String, fixturesDirectory: String, redaction: Redaction, merge: Bool) {
        self.contractsDirectory = contractsDirectory
        self.fixturesDirectory = fixturesDirectory
        self.redaction = redaction
        self.merge = merge
    }

    /// Writes `exchanges` (everything recorded so far) as contracts and fixtures.
    public func write(_ exchanges: [RecordedExchange]) throws -> Summary {
        Summary()
    }
}
