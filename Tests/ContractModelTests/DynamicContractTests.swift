import ContractModel
import Foundation
import Testing

/// Load-time checks of what makes responses follow the request: templates, fixture paths from the
/// query, sequences and domain states. Each mistake is a problem with file, JSON path and reason.
struct DynamicContractTests {
    private func problems(_ contract: String, fixtures: [String: String] = ["ok.json": "{}"]) throws -> [ContractProblem] {
        try loadProblems(contracts: ["test.json": contract], fixtures: fixtures)
    }

    private func contract(states: String? = nil, endpoint: String = #""path": "/e/{id}", "request": {"pathParams": {"id": "integer"}, "query": {"page": "integer?"}}"#,
                          whenState: String? = nil, scenarios: String) -> String {
        let statesPart = states.map { #""states": \#($0), "# } ?? ""
        let whenPart = whenState.map { #""whenState": \#($0), "# } ?? ""
        return #"{"domain": "d", \#(statesPart)"endpoints": [{"id": "e", "method": "GET", \#(endpoint), \#(whenPart)"scenarios": [\#(scenarios)]}]}"#
    }

    private let ok = #"{"name": "ok", "status": 200, "body": "ok.json", "expect": "success"}"#
    private let down = #"{"name": "down", "status": 503, "expect": "serverErr"}"#

    @Test func validDynamicContract_HasNoProblems() throws {
        let text = contract(states: #"["a", "b"]"#, whenState: #"{"b": "down"}"#, scenarios: [
            ok, down,
            #"{"name": "flaky", "sequence": ["down", "ok"], "afterLast": "startOver"}"#,
            #"{"name": "move", "status": 200, "setState": "b", "expect": "success"}"#,
            #"{"name": "page", "status": 200, "body": "pages/{page}.json", "fallback": "pages/{id}.json", "expect": "success"}"#,
            #"{"name": "echo", "status": 200, "body": "echo.json", "template": true, "expect": "success"}"#,
        ].joined(separator: ","))
        let found = try problems(text, fixtures: ["ok.json": "{}", "pages/1.json": "[]", "pages/draft.json": "not JSON",
                                                  "echo.json": #"{"id": {{path.id}}}"#])
        #expect(found.isEmpty, "\(found)")
    }

    @Test(arguments: [
        (#"{"name": "s", "sequence": ["nope"]}"#, "scenarios[2].sequence[0]", "unknown scenario \"nope\""),
        (#"{"name": "s", "sequence": []}"#, "scenarios[2].sequence", "at least one"),
        (#"{"name": "s", "sequence": ["ok"], "status": 200}"#, "scenarios[2].status", "belongs on those"),
        (#"{"name": "s", "sequence": ["ok"], "afterLast": "forever"}"#, "scenarios[2].afterLast", "repeatLast, startOver"),
        (#"{"name": "s", "status": 200, "expect": "success", "afterLast": "startOver"}"#, "scenarios[2].afterLast", "belongs to"),
        (#"{"name": "s", "status": 200, "setState": "b", "expect": "success"}"#, "scenarios[2].setState", "declares no states"),
        (#"{"name": "s", "status": 200, "template": true, "expect": "success"}"#, "scenarios[2].template", "needs a \"body\""),
        (#"{"name": "s", "status": 200, "body": "ok.json", "fallback": "ok.json", "expect": "success"}"#, "scenarios[2].fallback", "has none"),
        (#"{"name": "s", "status": 200, "body": "{id}/x.json", "expect": "success"}"#, "scenarios[2].body", "file name only"),
        (#"{"name": "s", "status": 200, "body": "x-{token}.json", "expect": "success"}"#, "scenarios[2].body", "{token} is neither"),
    ])
    func mistake_IsAProblemAtItsPath(scenario: String, path: String, reason: String) throws {
        let found = try problems(contract(scenarios: [ok, down, scenario].joined(separator: ",")))
        #expect(found.contains { $0.path.hasSuffix(path) && $0.reason.contains(reason) }, "\(found)")
    }

    @Test func nestedSequence_IsAProblem() throws {
        let found = try problems(contract(scenarios: [ok, #"{"name": "a", "sequence": ["ok"]}"#,
                                                      #"{"name": "b", "sequence": ["a"]}"#].joined(separator: ",")))
        #expect(found.contains { $0.path.hasSuffix("scenarios[2].sequence[0]") && $0.reason.contains("itself a sequence") })
    }

    @Test func unknownStatesAndScenarios_AreProblems() throws {
        let found = try problems(contract(states: #"["a", "a", "b c"]"#, whenState: #"{"z": "ok", "a": "nope"}"#,
                                          scenarios: [ok, #"{"name": "m", "status": 200, "setState": "q", "expect": "success"}"#]
                                              .joined(separator: ",")))
        let reasons = found.map { "\($0.path) \($0.reason)" }
        #expect(reasons.contains { $0.hasPrefix("$.states ") && $0.contains("duplicate state \"a\"") }, "\(reasons)")
        #expect(reasons.contains { $0.hasPrefix("$.states[2]") && $0.contains("word") })
        #expect(reasons.contains { $0.contains("whenState.z") && $0.contains("unknown state \"z\"") })
        #expect(reasons.contains { $0.contains("whenState.a") && $0.contains("unknown scenario \"nope\"") })
        #expect(reasons.contains { $0.contains("setState") && $0.contains("unknown state \"q\"") })
    }

    /// Every file a templated path can reach is checked, not only its folder.
    @Test func brokenFileBehindATemplatedPath_IsAProblem() throws {
        let text = contract(scenarios: #"{"name": "ok", "status": 200, "body": "todos/{id}.json", "expect": "success"}"#)
        let found = try problems(text, fixtures: ["todos/1.json": "{\"title\": ", "todos/2.json": "{}",
                                                  "todos/notes.json": "not JSON, and no id can reach it"])
        #expect(found.count == 1)
        #expect(found.first?.reason.contains("todos/1.json") == true)
        #expect(found.first?.path == "$.endpoints[0].scenarios[0].body")
    }

    @Test func missingFallback_IsAProblem() throws {
        let text = contract(scenarios: #"{"name": "ok", "status": 200, "body": "p/{page}.json", "fallback": "p/none.json", "expect": "success"}"#)
        let found = try problems(text, fixtures: ["p/1.json": "{}"])
        #expect(found.map(\.path) == ["$.endpoints[0].scenarios[0].fallback"])
    }

    @Test func badTemplate_IsAProblemWithFileJSONPathAndPosition() throws {
        let text = contract(scenarios: #"{"name": "ok", "status": 200, "body": "t.json", "template": true, "expect": "success"}"#)
        let found = try problems(text, fixtures: ["t.json": "{\n  \"a\": \"{{path.nope}}\",\n  \"b\": \"{{query.page\"\n}"])
        #expect(found.count == 1, "\(found)")
        let problem = try #require(found.first)
        #expect(problem.file.hasSuffix("test.json"))
        #expect(problem.path == "$.endpoints[0].scenarios[0].body")
        #expect(problem.reason.contains("t.json") && problem.reason.contains("line 2"), "\(problem.reason)")
    }

    @Test func unclosedPlaceholder_IsAProblemAtItsPosition() throws {
        let text = contract(scenarios: #"{"name": "ok", "status": 200, "body": "t.json", "template": true, "expect": "success"}"#)
        let found = try problems(text, fixtures: ["t.json": "{\n  \"b\": \"{{query.page\"\n}"])
        #expect(found.first?.reason.contains("line 2, column 9") == true, "\(found)")
        #expect(found.first?.reason.contains("unclosed") == true)
    }
}

/// Checks that need more than one contract file, or a template's exact position.
struct DynamicContractEdgeTests {
    @Test func twoFilesDeclaringStatesForOneDomain_IsAProblem() throws {
        var contracts: [String: String] = [:]
        for (file, path) in [("a.json", "/a"), ("b.json", "/b")] {
            contracts[file] = #"{"domain": "d", "states": ["x", "y"], "endpoints": [{"id": "\#(path)", "method": "GET", "path": "\#(path)", "scenarios": [{"name": "ok", "status": 204, "expect": "success"}]}]}"#
        }
        let problems = try loadProblems(contracts: contracts, fixtures: [:])
        #expect(problems.map(\.path) == ["$.states"])
        #expect(problems.first?.reason.contains("already declares its states in") == true)
    }

    @Test(arguments: [
        (#"{"delta": -{{path.id}}}"#, "found \"-\" before it"),
        (#"{"v": {{path.id}}{{counter}}}"#, "found another placeholder after it"),
        (#"{"v": 1{{path.id}}}"#, "found \"1\" before it"),
        (#"{"v": {{path.id}}0}"#, "found \"0\" after it"),
    ])
    func bareValueThatDoesNotStandAlone_IsAProblem(template: String, found: String) throws {
        let context = ResponseTemplate.Context(pathParameters: ["id": FieldType(kind: .integer)], isJSON: true)
        #expect(throws: ResponseTemplate.Problem.self) { try ResponseTemplate.parse(Array(template.utf8), context: context) }
        do {
            _ = try ResponseTemplate.parse(Array(template.utf8), context: context)
        } catch {
            #expect(error.message.contains(found), "\(error)")
        }
    }

    @Test func bareValuesBetweenPunctuationAndSpace_AreFine() throws {
        let context = ResponseTemplate.Context(pathParameters: ["id": FieldType(kind: .integer)], isJSON: true)
        _ = try ResponseTemplate.parse(Array(#"{"a": {{path.id}}, "b": [{{path.id}},{{counter}}], "c":{{now.epoch}} }"#.utf8),
                                       context: context)
    }
}
