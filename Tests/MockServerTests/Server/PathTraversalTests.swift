import Foundation
import MockServer
import Testing
import TestSupport

/// Request values that try to name a file outside the fixtures folder, through a path parameter the
/// contract types as `string`, so no type check refuses them before the fixture path is resolved.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct PathTraversalTests {
    /// `base/secret.txt` beside `base/Fixtures`, which holds `files/ok.txt`, `files/.hidden` and
    /// `files/sub/inner.txt`; one endpoint serves `files/{name}`.
    private let base: URL

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("traversal-\(UUID().uuidString)")
        let files = base.appendingPathComponent("Fixtures/files")
        try FileManager.default.createDirectory(at: files.appendingPathComponent("sub"),
                                                withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: base.appendingPathComponent("Contracts"),
                                                withIntermediateDirectories: true)
        try Data("SECRET-CONTENT".utf8).write(to: base.appendingPathComponent("secret.txt"))
        try Data("OK".utf8).write(to: files.appendingPathComponent("ok.txt"))
        try Data("HIDDEN-CONTENT".utf8).write(to: files.appendingPathComponent(".hidden"))
        try Data("INNER-CONTENT".utf8).write(to: files.appendingPathComponent("sub/inner.txt"))
        try Data(#"""
            { "domain": "files", "endpoints": [ { "id": "file", "method": "GET", "path": "/files/{name}",
              "request": { "pathParams": { "name": "string" } },
              "response": { "contentType": "text/plain" },
              "scenarios": [ { "name": "success", "status": 200, "body": "files/{name}", "expect": "success" } ] } ] }
            """#.utf8).write(to: base.appendingPathComponent("Contracts/files.json"))
    }

    private func withFilesServer(_ body: (MockServer) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: base) }
        try await withServer(contracts: base.appendingPathComponent("Contracts").path,
                             fixtures: base.appendingPathComponent("Fixtures").path, body)
    }

    @Test func plainName_IsServed_FromTheFixturesFolder() async throws {
        try await withFilesServer { server in
            let response = try RawClient(port: server.port).get("/files/ok.txt")
            #expect(response.status == 200 && response.text == "OK")
        }
    }

    /// Each value passes the contract (any string will do) and reaches the fixture lookup, where the
    /// path rule refuses it: letters, digits, `-`, `_` and inner dots only, so no `/`, `\`, NUL, `..`
    /// or leading dot, however percent-encoded.
    @Test(arguments: [
        "/files/..%2F..%2Fsecret.txt",          // ../../secret.txt: two levels up, to the file beside Fixtures
        "/files/%2e%2e%2f%2e%2e%2fsecret.txt",  // the same, dots encoded
        "/files/%2E%2E%2F%2E%2E%2Fsecret.txt",  // the same, upper-case escapes
        "/files/..%5C..%5Csecret.txt",          // backslashes, a separator elsewhere
        "/files/%2e%2e",                        // the fixtures folder itself
        "/files/sub%2Finner.txt",               // %2F adding a level inside the folder
        "/files/.hidden",                       // a dot file
        "/files/ok.txt%00",                     // NUL, which ends a C path
    ])
    func pathTraversal_ThroughAStringParameter_IsRefusedByThePathRule(target: String) async throws {
        try await withFilesServer { server in
            let response = try RawClient(port: server.port).get(target)
            #expect(response.status == 404)
            #expect(!response.text.contains("-CONTENT"), "a file's content was served: \(response.text)")
            let entry = try #require(server.journal.entries().last)
            // Routed and valid by contract: what refused it is the fixture path, not a type check.
            #expect(entry.endpoint == "file" && entry.violations.isEmpty)
            // Refused by the path rule, before the file system is asked.
            #expect(entry.reason?.hasPrefix("a parameter value cannot name a fixture") == true, "\(entry.reason ?? "-")")
        }
    }
}
