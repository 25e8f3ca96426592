import Foundation

/// A temporary contracts folder and fixtures folder that a test writes and may edit; removed when the
/// value is released.
public final class ScratchContracts: Sendable {
    public let root: String
    public var contracts: String { root + "/Contracts" }
    public var fixtures: String { root + "/Fixtures" }

    /// - Parameters:
    ///   - copying: A folder holding `Contracts/` and `Fixtures/` to start from (the repository's root).
    ///   - contracts: Contract files to write, by name.
    ///   - fixtures: Fixture files to write, by path relative to the fixtures folder.
    public init(copying: String? = nil, contracts: [(String, String)] = [], fixtures: [(String, String)] = []) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-\(UUID().uuidString)").path
        let files = FileManager.default
        if let copying {
            try files.createDirectory(atPath: root, withIntermediateDirectories: true)
            try files.copyItem(atPath: copying + "/Contracts", toPath: root + "/Contracts")
            try files.copyItem(atPath: copying + "/Fixtures", toPath: root + "/Fixtures")
        } else {
            try files.createDirectory(atPath: root + "/Contracts", withIntermediateDirectories: true)
            try files.createDirectory(atPath: root + "/Fixtures", withIntermediateDirectories: true)
        }
        for (name, text) in contracts { try writeContract(name, text) }
        for (path, text) in fixtures { try writeFixture(path, text) }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Writes a contract file as an editor saves it: a new file renamed over the old one.
    public func writeContract(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: contracts + "/" + name), options: .atomic)
    }

    public func writeFixture(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: fixtures + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
