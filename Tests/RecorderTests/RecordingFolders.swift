import ContractModel
import Foundation
import MockServer
import Recorder
import Testing

/// A temporary folder to record into (`Contracts/` and `Fixtures/` are not created: the writer makes
/// them), removed when the value is released.
final class RecordingFolders: Sendable {
    let root: String
    var contracts: String { root + "/Contracts" }
    var fixtures: String { root + "/Fixtures" }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func writer(merge: Bool = false, redaction: RecordingWriter.Redaction = .init()) -> RecordingWriter {
        RecordingWriter(contractsDirectory: contracts, fixturesDirectory: fixtures, redaction: redaction, merge: merge)
    }

    /// Every file under the root, by path relative to it, sorted.
    func files() -> [String: [UInt8]] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [String: [UInt8]] = [:]
        while let name = enumerator?.nextObject() as? String {
            let path = root + "/" + name
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
               let data = FileManager.default.contents(atPath: path) {
                files[name] = Array(data)
            }
        }
        return files
    }

    func text(_ relativePath: String) -> String {
        String(decoding: FileManager.default.contents(atPath: root + "/" + relativePath) ?? Data(), as: UTF8.self)
    }

    /// The folders as `mock-server validate` loads them, every problem a test failure.
    @discardableResult
    func validate(sourceLocation: SourceLocation = #_sourceLocation) -> ContractSet? {
        do {
            return try ContractLoader.load(contractsDirectory: contracts, fixturesDirectory: fixtures)
        } catch {
            let problems = error.problems.map(\.description).joined(separator: "\n")
            Issue.record("the recording does not validate:\n\(problems)", sourceLocation: sourceLocation)
            return nil
        }
    }
}
