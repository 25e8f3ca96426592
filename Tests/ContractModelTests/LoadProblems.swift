import ContractModel
import Foundation

/// Writes contract files and fixtures into a fresh folder, loads them, and returns the problems (none
/// when they load).
/// - Parameters:
///   - contracts: Contract texts by file name.
///   - fixtures: Fixture texts by path relative to the fixtures folder.
func loadProblems(contracts: [String: String], fixtures: [String: String] = ["ok.json": "{}"]) throws -> [ContractProblem] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contracts-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let contractsFolder = directory.appendingPathComponent("Contracts")
    try FileManager.default.createDirectory(at: contractsFolder, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: directory.appendingPathComponent("Fixtures"), withIntermediateDirectories: true)
    for (name, text) in contracts {
        try Data(text.utf8).write(to: contractsFolder.appendingPathComponent(name))
    }
    for (path, text) in fixtures {
        let url = directory.appendingPathComponent("Fixtures/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    do {
        _ = try ContractLoader.load(contractsDirectory: contractsFolder.path,
                                    fixturesDirectory: directory.appendingPathComponent("Fixtures").path)
        return []
    } catch {
        return error.problems
    }
}
