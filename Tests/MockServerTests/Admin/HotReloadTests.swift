import Foundation
import MockServer
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(2)), .blockingIO) struct HotReloadTests {
    /// A private copy of the bundled contracts and fixtures that a test may edit.
    private func temporaryCopy() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["Contracts", "Fixtures"] {
            try FileManager.default.copyItem(atPath: Repository.root + "/" + name,
                                             toPath: directory.appendingPathComponent(name).path)
        }
        return directory
    }

    @Test func editedFixture_IsServedWithoutRestart() async throws {
        let directory = try temporaryCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = directory.appendingPathComponent("Fixtures/health/ok.txt")
        try await withServer(contracts: directory.appendingPathComponent("Contracts").path,
                             fixtures: directory.appendingPathComponent("Fixtures").path) { server in
            let client = try RawClient(port: server.port)
            #expect(try client.get("/healthChecker").text == "OK")
            try Data("OK, edited".utf8).write(to: fixture)
            #expect(try client.get("/healthChecker").text == "OK, edited")
            try FileManager.default.removeItem(at: fixture)
            #expect(try client.get("/healthChecker").status == 404)
        }
    }

    @Test func fixtureAddedWhileRunning_IsServed_AndAtomicReplaceIsSeen() async throws {
        let directory = try temporaryCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixtures = directory.appendingPathComponent("Fixtures")
        try await withServer(contracts: directory.appendingPathComponent("Contracts").path,
                             fixtures: fixtures.path) { server in
            let client = try RawClient(port: server.port)
            #expect(try client.get("/api/products/42").status == 404)
            let product = try Data(contentsOf: fixtures.appendingPathComponent("products/1.json"))
            try product.write(to: fixtures.appendingPathComponent("products/42.json"))
            let added = try client.get("/api/products/42")
            #expect(added.status == 200)
            #expect(added.body == Array(product))
            // Editors save by writing a new file and renaming it over the old one.
            try Data("{}".utf8).write(to: fixtures.appendingPathComponent("products/42.json"), options: .atomic)
            #expect(try client.get("/api/products/42").text == "{}")
        }
    }
}
