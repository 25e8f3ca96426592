import ContractModel
import Foundation
import Testing

struct ContractLoaderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func bundledContracts_Load() throws {
        let set = try ContractLoader.load(contractsDirectory: Self.root + "/Contracts",
                                          fixturesDirectory: Self.root + "/Fixtures")
        #expect(set.contracts.map(\.domain) == ["health", "products", "questions"])
        #expect(set.endpoints.count == 17, "11 declared, and the cart resource's 6 operations")
        let faults = Set(set.endpoints.flatMap(\.scenarios).compactMap(\.fault))
        #expect(faults == Set(Fault.allCases))
        for endpoint in set.endpoints where endpoint.resource == nil {
            let expectations = Set(endpoint.scenarios.map(\.expect))
            #expect(expectations.isSuperset(of: [.success, .requestErr, .pathErr, .serverErr]), "\(endpoint.id)")
        }
    }

    private func problems(_ contract: String, fixtures: [String: String] = ["ok.json": "{}"]) throws -> [ContractProblem] {
        try loadProblems(contracts: ["test.json": contract], fixtures: fixtures)
    }

    private func contract(endpoint: String = #""id": "e", "method": "GET", "path": "/e""#,
                          scenarios: String = #"{ "name": "success", "status": 200, "body": "ok.json", "expect": "success" }"#)
        -> String
    {
        #"{ "domain": "d", "endpoints": [ { \#(endpoint), "scenarios": [ \#(scenarios) ] } ] }"#
    }

    @Test func validContract_HasNoProblems() throws {
        #expect(try problems(contract()).isEmpty)
    }

    @Test(arguments: [
        (#"{ "name": "s", "stauts": 200, "expect": "success" }"#, "$.endpoints[0].scenarios[0].stauts", "unknown key"),
        (#"{ "name": "s", "status": 700, "expect": "serverErr" }"#, "$.endpoints[0].scenarios[0].status", "outside 200...599"),
        (#"{ "name": "s", "status": "200", "expect": "success" }"#, "$.endpoints[0].scenarios[0].status", "expected an integer"),
        (#"{ "name": "s", "status": 500, "expect": "success" }"#, "$.endpoints[0].scenarios[0].expect", "cannot follow from status 500"),
        (#"{ "name": "s", "fault": "explode", "expect": "networkFail" }"#, "$.endpoints[0].scenarios[0].fault", "is not one of"),
        (#"{ "name": "s", "fault": "empty_response", "expect": "success" }"#, "$.endpoints[0].scenarios[0].expect", "cannot follow from fault"),
        (#"{ "name": "s", "expect": "success" }"#, "$.endpoints[0].scenarios[0]", "needs either"),
        (#"{ "name": "s", "status": 200, "fault": "no_response", "expect": "networkFail" }"#, "$.endpoints[0].scenarios[0]", "both"),
        (#"{ "name": "s", "status": 200, "body": "missing.json", "expect": "success" }"#, "$.endpoints[0].scenarios[0].body", "not found"),
        (#"{ "name": "s", "status": 200, "body": "../secret.json", "expect": "success" }"#, "$.endpoints[0].scenarios[0].body", "relative path inside"),
        (#"{ "name": "s", "status": 200, "body": "broken.json", "expect": "success" }"#, "$.endpoints[0].scenarios[0].body", "not valid JSON"),
        (#"{ "name": "s", "status": 200, "delayMs": -1, "expect": "success" }"#, "$.endpoints[0].scenarios[0].delayMs", "outside"),
        (#"{ "name": "s", "status": 200, "expect": "maybe" }"#, "$.endpoints[0].scenarios[0].expect", "is not one of"),
        (#"{ "name": "a", "status": 200, "expect": "success" }, { "name": "a", "status": 500, "expect": "serverErr" }"#, "$.endpoints[0].scenarios", "duplicate scenario name \"a\""),
        (#"{ "name": "s", "status": 401, "headers": { "WWW-Authenticate": "Basic realm=x" }, "expect": "requestErr" }"#, "$.endpoints[0].scenarios[0].headers.WWW-Authenticate", "Basic challenge"),
        (#"{ "name": "s", "status": 200, "headers": { "X Trace": "1" }, "expect": "success" }"#, "$.endpoints[0].scenarios[0].headers.X Trace", "a header name is a token"),
        (#"{ "name": "s", "status": 200, "headers": { "X-Trace": "a\r\nSet-Cookie: b" }, "expect": "success" }"#, "$.endpoints[0].scenarios[0].headers.X-Trace", "control characters"),
        (#"{ "name": "s", "status": 200, "headers": { "X-Trace": "a\u0000" }, "expect": "success" }"#, "$.endpoints[0].scenarios[0].headers.X-Trace", "control characters"),
    ])
    func badScenario_IsReported_WithPathAndReason(scenario: String, path: String, reason: String) throws {
        let found = try problems(contract(scenarios: scenario), fixtures: ["ok.json": "{}", "broken.json": "{"])
        #expect(found.contains { $0.path == path && $0.reason.contains(reason) }, "\(found)")
        #expect(found.allSatisfy { $0.file.hasSuffix("test.json") })
    }

    /// A fixture path that is there but is no file is said to be so, not "not found".
    @Test func fixtureThatIsAFolder_IsReported_AsAFolder() throws {
        let scenario = #"{ "name": "s", "status": 200, "body": "folder.json", "expect": "success" }"#
        let found = try problems(contract(scenarios: scenario), fixtures: ["folder.json/inner.json": "{}"])
        #expect(found.contains { $0.reason.contains("fixture \"folder.json\" is a folder in") }, "\(found)")
        #expect(!found.contains { $0.reason.contains("not found") }, "\(found)")
    }

    /// The toolchain's decoder accepts these; fixtures of ordinary size are read by the strict reader.
    @Test(arguments: [#"{"a":[1,2,],}"#, #"{"a":"\x"}"#, #"{"a":01}"#, "[1] [2]"])
    func lenientJSONFixture_IsAProblem(fixture: String) throws {
        let scenario = #"{ "name": "s", "status": 200, "body": "lenient.json", "expect": "success" }"#
        let found = try problems(contract(scenarios: scenario), fixtures: ["lenient.json": fixture])
        #expect(found.contains { $0.reason.contains("is not valid JSON") }, "\(found)")
    }

    @Test func malformedFixture_IsAllowed_UnderMalformedFolder() throws {
        let scenario = #"{ "name": "s", "status": 200, "body": "malformed/broken.json", "expect": "pathErr" }"#
        #expect(try problems(contract(scenarios: scenario), fixtures: ["malformed/broken.json": "{"]).isEmpty)
    }

    @Test(arguments: [
        (#""id": "e", "method": "FETCH", "path": "/e""#, "$.endpoints[0].method"),
        (#""id": "e", "method": "GET", "path": "e""#, "$.endpoints[0].path"),
        (#""id": "e", "method": "GET", "path": "/a/{id}x""#, "$.endpoints[0].path"),
        (#""id": "e", "method": "GET", "path": "/e", "request": { "query": { "n": "int" } }"#, "$.endpoints[0].request.query.n"),
        (#""id": "e", "method": "GET", "path": "/e", "request": { "pathParams": { "id": "integer" } }"#, "$.endpoints[0].request.pathParams.id"),
        (#""id": "e", "method": "GET", "path": "/e", "request": { "auth": "basic" }"#, "$.endpoints[0].request.auth"),
        (#""id": "e", "method": "GET", "path": "/e", "request": { "body": { "type": "xml" } }"#, "$.endpoints[0].request.body.type"),
        (#""method": "GET", "path": "/e""#, "$.endpoints[0].id"),
    ])
    func badEndpoint_IsReported(endpoint: String, path: String) throws {
        let found = try problems(contract(endpoint: endpoint))
        #expect(found.contains { $0.path == path }, "\(found)")
    }

    @Test func duplicateIdsAndRoutes_AreReported() throws {
        let scenario = #"{ "name": "success", "status": 200, "expect": "success" }"#
        let text = #"{ "domain": "d", "endpoints": [ "#
            + #"{ "id": "e", "method": "GET", "path": "/a/{id}", "scenarios": [\#(scenario)] },"#
            + #"{ "id": "e", "method": "GET", "path": "/a/{key}", "scenarios": [\#(scenario)] } ] }"#
        let found = try problems(text)
        #expect(found.contains { $0.reason.contains("duplicate endpoint id \"e\"") })
        #expect(found.contains { $0.reason.contains("already served by endpoint") })
    }

    @Test func invalidJSON_AndMissingFolders_AreReported() throws {
        #expect(try problems("{ not json").contains { $0.path == "$" && $0.reason.contains("not valid JSON") })
        #expect(throws: ContractLoadError.self) {
            try ContractLoader.load(contractsDirectory: "/nonexistent/contracts", fixturesDirectory: "/nonexistent")
        }
    }

    @Test func everyProblem_IsListed_NotJustTheFirst() throws {
        let scenarios = #"{ "name": "a", "status": 999, "expect": "success" }, { "name": "b", "fault": "boom", "expect": "networkFail" }"#
        #expect(try problems(contract(scenarios: scenarios)).count >= 2)
    }
}

struct JSONReaderTests {
    @Test(arguments: [
        ("{ \"a\": 1 \n  \"b\": 2 }", "line 2, column 3: expected ',' or '}'"),
        ("{ \"a\": tru }", "line 1, column 8: expected true"),
        ("[1, 2", "line 1, column 6: unexpected end of the document"),
        ("{ \"a\": \"x }", "line 1, column 8: unterminated string"),
        ("{} {}", "line 1, column 4: unexpected text after the document"),
        ("{ \"a\": 1, }", "line 1, column 11: expected a quoted key"),
        ("[01]", "line 1, column 3: expected ',' or ']'"),
        ("[1e999]", "line 1, column 2: number out of range"),
        ("[\"\\x\"]", "line 1, column 3: invalid escape '\\x'"),
    ])
    func invalidJSON_IsLocated(text: String, message: String) throws {
        let problems: [ContractProblem]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("syntax-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent("bad.json"))
        do {
            _ = try ContractLoader.load(contractsDirectory: directory.path, fixturesDirectory: directory.path)
            problems = []
        } catch {
            problems = error.problems
        }
        #expect(problems.map(\.reason) == ["not valid JSON: " + message])
    }

    @Test func values_AreRead_WithEscapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(Array(#"{"a": [1, -2.5e1, true, null], "s": "\"\\\/\n\u00e9\ud83d\ude00\ud800"}"#.utf8))
        #expect(value == .object([
            "a": .array([.number(1), .number(-25), .bool(true), .null]),
            "s": .string("\"\\/\n\u{e9}\u{1F600}\u{FFFD}"),
        ]))
    }

    @Test func rawStrings_MustBeValidUTF8_WithOrWithoutEscapes() throws {
        #expect(try JSONValue.parse(Array("[\"h\u{e9}llo \u{1F600}\"]".utf8)) == .array([.string("h\u{e9}llo \u{1F600}")]))
        #expect(try JSONValue.parse(Array("[\"\\n\u{e9}\"]".utf8)) == .array([.string("\n\u{e9}")]))
        for invalid: [UInt8] in [[0xC3], [0xFF, 0x41], [0xED, 0xA0, 0x80], [0xE2, 0x82]] {
            for prefix: [UInt8] in [[], Array("\\t".utf8)] {
                let document = Array("[\"a".utf8) + prefix + invalid + Array("\"]".utf8)
                #expect(throws: JSONReadError.self) { try JSONValue.parse(document) }
            }
        }
    }
}

/// A default macOS volume ignores letter case, so a path that differs from the file only in case works
/// there and breaks on Linux CI; `validate` says so on every platform, naming the spelling on disk.
struct FixtureCaseTests {
    private func load(body: String, files: [String]) throws -> [ContractProblem] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("case-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let contracts = directory.appendingPathComponent("Contracts")
        try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
        let contract = #"{ "domain": "d", "endpoints": [ { "id": "e", "method": "GET", "path": "/e/{id}", "#
            + #""scenarios": [ { "name": "success", "status": 200, "body": "\#(body)", "expect": "success" } ] } ] }"#
        try Data(contract.utf8).write(to: contracts.appendingPathComponent("d.json"))
        for file in files {
            let url = directory.appendingPathComponent("Fixtures/" + file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        do {
            _ = try ContractLoader.load(contractsDirectory: contracts.path,
                                        fixturesDirectory: directory.appendingPathComponent("Fixtures").path)
            return []
        } catch {
            return error.problems
        }
    }

    @Test(arguments: [
        ("Products/list.json", "products/list.json"),
        ("products/List.json", "products/list.json"),
        ("PRODUCTS/{id}.json", "products"),
    ])
    func fixturePath_DifferingOnlyInCase_IsAProblemNamingTheFileOnDisk(body: String, onDisk: String) throws {
        let problems = try load(body: body, files: ["products/list.json"])
        try #require(problems.count == 1)
        #expect(problems[0].reason.contains("differs in letter case from \"\(onDisk)\""))
        #expect(problems[0].path.hasSuffix(".body"))
    }

    @Test func exactlyCasedPaths_HaveNoProblem() throws {
        #expect(try load(body: "products/list.json", files: ["products/list.json"]).isEmpty)
        #expect(try load(body: "products/{id}.json", files: ["products/list.json"]).isEmpty)
    }
}

/// A fixture that a symbolic link places outside the fixtures folder is a problem `validate` names,
/// with where the link leads; links that stay inside are fine.
struct FixtureContainmentTests {
    @Test func linksLeavingTheFolder_AreProblems_NamingTheTarget() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixtures = directory.appendingPathComponent("Fixtures")
        let contracts = directory.appendingPathComponent("Contracts")
        try FileManager.default.createDirectory(at: fixtures.appendingPathComponent("p"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
        let secret = directory.appendingPathComponent("secret.json")
        try Data("{}".utf8).write(to: secret)
        try Data("{}".utf8).write(to: fixtures.appendingPathComponent("inside.json"))
        try FileManager.default.createSymbolicLink(at: fixtures.appendingPathComponent("alias.json"),
                                                   withDestinationURL: fixtures.appendingPathComponent("inside.json"))
        try FileManager.default.createSymbolicLink(at: fixtures.appendingPathComponent("leak.json"), withDestinationURL: secret)
        try FileManager.default.createSymbolicLink(at: fixtures.appendingPathComponent("p/7.json"), withDestinationURL: secret)
        let contract = #"{ "domain": "d", "endpoints": [ { "id": "e", "method": "GET", "path": "/e/{id}", "scenarios": ["#
            + #"{ "name": "a", "status": 200, "body": "alias.json", "expect": "success" },"#
            + #"{ "name": "b", "status": 200, "body": "leak.json", "expect": "success" },"#
            + #"{ "name": "c", "status": 200, "body": "p/{id}.json", "expect": "success" } ] } ] }"#
        try Data(contract.utf8).write(to: contracts.appendingPathComponent("d.json"))

        let error = try #require(throws: ContractLoadError.self) {
            try ContractLoader.load(contractsDirectory: contracts.path, fixturesDirectory: fixtures.path)
        }
        let reasons = error.problems.map(\.reason)
        #expect(reasons.count == 2, "\(reasons)")
        #expect(reasons.contains { $0.hasPrefix("fixture \"leak.json\" is a symbolic link to") && $0.contains("secret.json") })
        #expect(reasons.contains { $0.hasPrefix("fixture \"p/7.json\" is a symbolic link to") })
    }
}
