#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// Turns recorded exchanges into contracts and fixtures on disk that `mock-server validate` accepts
/// and that, served, answer each recorded request with its recorded status and body.
///
/// One contract file per domain (``RecordingNames``), one endpoint per method and path template, one
/// scenario per distinct outcome (see ``RecordingPlanner`` for templates, per-id fixtures and replay).
/// Secrets never reach the files: credential headers are dropped, secret JSON and form values are
/// replaced with `"<redacted>"`, query values and request bodies are described by their types only.
///
/// ```swift
/// let writer = RecordingWriter(contractsDirectory: "Recorded/Contracts", fixturesDirectory: "Recorded/Fixtures",
///                              redaction: .init(), merge: false)
/// let summary = try writer.write(exchanges)
/// print("\(summary.endpoints) endpoints, \(summary.scenarios) scenarios")
/// ```
///
/// A writer belongs to one recording session: each ``write(_:)`` writes everything recorded so far over
/// the folders as they were before its first write (``FolderBaseline``), so flushing twice gives the
/// files that flushing once at the end would.
public final class RecordingWriter: Sendable {
    /// What is kept out of the files: header names and JSON keys whose values are secrets.
    public struct Redaction: Sendable {
        public var headers: [String]
        public var keys: [String]
        /// The defaults plus `extraHeaders` (`--redact-header`) and `extraKeys` (`--redact-key`).
        /// The defaults: the headers `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`; any
        /// JSON or form key naming a token, secret, password, API key, cookie or credential in any spelling
        /// (``SecretRedactor``).
        public init(extraHeaders: [String] = [], extraKeys: [String] = []) {
            headers = extraHeaders
            keys = extraKeys
        }
    }

    /// What one write did, for the log line after a flush.
    public struct Summary: Sendable, Equatable {
        /// The contract files written, as paths under ``RecordingWriter/contractsDirectory``, sorted.
        public var contractFiles: [String] = []
        /// The fixture files written, as paths under ``RecordingWriter/fixturesDirectory``, sorted.
        public var fixtureFiles: [String] = []
        /// Endpoints written (with `merge`, endpoints added).
        public var endpoints = 0
        /// Scenarios written (with `merge`, scenarios added).
        public var scenarios = 0
        /// Exchanges a contract cannot describe (a method it has no word for, a status outside 200…599, a
        /// path that is not one), each with its reason; the others are written.
        public var skipped: [String] = []
        /// What was decided for each endpoint recorded (with `merge`, each endpoint of the recording).
        public var endpointReports: [EndpointReport] = []
        /// Secret values replaced with `"<redacted>"` in the fixtures written.
        public var redactedValues = 0
        /// Credential header fields (`Authorization`, `Cookie`, `Set-Cookie`, `--redact-header` names) left out.
        public var credentialFieldsDropped = 0

        /// Nothing written.
        public init() {}
    }

    public let contractsDirectory: String
    public let fixturesDirectory: String
    public let redaction: Redaction
    /// Adds to the contracts already in the folders instead of refusing to write over them.
    public let merge: Bool
    /// Writes each scenario's observed `latency` (`--no-latency` turns it off).
    public let keepsLatency: Bool

    /// What the folders held before this session's first write; the lock also keeps two flushes (a
    /// request and a signal) from writing at once.
    private let baseline = Locked(FolderBaseline())

    public init(contractsDirectory: String, fixturesDirectory: String, redaction: Redaction, merge: Bool,
                keepsLatency: Bool = true) {
        self.contractsDirectory = contractsDirectory
        self.fixturesDirectory = fixturesDirectory
        self.redaction = redaction
        self.merge = merge
        self.keepsLatency = keepsLatency
    }

    /// Writes `exchanges` (everything recorded so far) as contracts and fixtures, all or nothing.
    /// - Returns: What was written, and the exchanges left out.
    /// - Throws: ``RecordingError`` when the contracts folder already holds contracts (or the fixtures
    ///   folder holds files) and `merge` is off, when an existing contract to merge into is not JSON, or
    ///   when a folder or file cannot be written; nothing is written then.
    /// Checks, before anything is recorded, that a write could go ahead: folders that hold contracts are refused
    /// without `merge`, and contracts to merge into must be JSON. Called at start, so a recorder never relays for
    /// an hour to find at the end that it may not write (and lose the recording as it exits).
    public func checkFolders() throws(RecordingError) {
        let result = baseline.withValue { baseline -> Result<Void, RecordingError> in
            Result { () throws(RecordingError) in _ = try existingContracts(baseline) }
        }
        try result.get()
    }

    public func write(_ exchanges: [RecordedExchange]) throws(RecordingError) -> Summary {
        let result = baseline.withValue { baseline -> Result<Summary, RecordingError> in
            Result { () throws(RecordingError) in try write(exchanges, over: &baseline) }
        }
        return try result.get()
    }

    private func write(_ exchanges: [RecordedExchange], over baseline: inout FolderBaseline) throws(RecordingError) -> Summary {
        let existing = try existingContracts(baseline)
        let fixtures = fixturesDirectory
        let original = baseline
        let namer = merge ? FixtureNamer(existing: { original.read(fixtures + "/" + $0) }) : FixtureNamer()
        var merger = ContractMerger(documents: existing)
        var planner = RecordingPlanner(headers: HeaderFilter(extraSecrets: redaction.headers),
                                       redactor: SecretRedactor(extraKeys: redaction.keys), namer: namer,
                                       reservedIDs: merger.endpointIDs, keepsLatency: keepsLatency)
        let plan = planner.plan(exchanges)
        var summary = Summary()
        summary.skipped = plan.skipped
        summary.endpointReports = plan.reports
        summary.credentialFieldsDropped = plan.credentialFieldsDropped
        var contracts: [String: [UInt8]] = [:]
        if merge {
            merger.merge(plan.endpoints)
            for file in merger.changed { contracts[file] = merger.documents[file].map(ContractDocument.bytes) }
            (summary.endpoints, summary.scenarios) = (merger.addedEndpoints, merger.addedScenarios)
        } else {
            for (domain, endpoints) in plan.domains {
                contracts[domain + ".json"] = ContractDocument.bytes(ContractDocument.contract(domain: domain,
                                                                                               endpoints: endpoints))
            }
            (summary.endpoints, summary.scenarios) = (plan.endpoints.count, plan.endpoints.reduce(0) { $0 + $1.scenarios.count })
        }
        // A merge keeps every fixture already there: the namer gave changed ones new names.
        let newFixtures = plan.fixtures.filter { path, _ in !merge || baseline.read(fixtures + "/" + path) == nil }
        let files = contracts.map { FileSetWriter.File(path: contractsDirectory + "/" + $0.key, bytes: $0.value) }
            + newFixtures.map { FileSetWriter.File(path: fixtures + "/" + $0.key, bytes: $0.value) }
        // What an earlier flush wrote and this one does not goes back to how it was.
        let restorations = baseline.restorations(besides: Set(files.map(\.path)))
        var noted = baseline
        noted.note(files.map(\.path))
        try FileSetWriter.write((files + restorations).sorted { $0.path < $1.path })
        baseline = noted
        summary.contractFiles = contracts.keys.sorted().map { contractsDirectory + "/" + $0 }
        summary.fixtureFiles = newFixtures.keys.sorted().map { fixtures + "/" + $0 }
        summary.redactedValues = newFixtures.values.reduce(0) { $0 + Self.placeholders(in: $1) }
        return summary
    }

    /// The contract documents already in the folder, by file name; refuses a folder that has any when
    /// `merge` is off.
    private func existingContracts(_ baseline: FolderBaseline) throws(RecordingError) -> [String: JSONValue] {
        let names = baseline.names(in: contractsDirectory).filter { $0.hasSuffix(".json") }.sorted()
        guard merge else {
            if !names.isEmpty {
                throw RecordingError("\(contractsDirectory) already holds contracts (\(names.joined(separator: ", "))); "
                    + "pass --merge to add the recording to them, or choose empty folders; nothing was written")
            }
            if baseline.holdsFiles(fixturesDirectory) {
                throw RecordingError("\(fixturesDirectory) is not empty; pass --merge to add the recording to the "
                    + "contracts and fixtures there, or choose empty folders; nothing was written")
            }
            return [:]
        }
        var documents: [String: JSONValue] = [:]
        for name in names {
            let path = contractsDirectory + "/" + name
            guard let bytes = baseline.read(path), let document = try? JSONValue.parse(bytes) else {
                throw RecordingError("cannot merge into \(path): it is not readable JSON; fix it, or record into "
                    + "empty folders; nothing was written")
            }
            documents[name] = document
        }
        return documents
    }

    /// How many times ``SecretRedactor/placeholder`` occurs in `bytes`.
    private static func placeholders(in bytes: [UInt8]) -> Int {
        let needle = Array(SecretRedactor.placeholder.utf8)
        guard bytes.count >= needle.count else { return 0 }
        var count = 0
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) {
                count += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return count
    }
}
