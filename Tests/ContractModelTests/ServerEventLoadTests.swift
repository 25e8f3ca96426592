@testable import ContractModel
import Testing

/// A scenario's `events` is checked at load: every problem named with the file, the JSON path and why.
struct ServerEventLoadTests {
    private static func contract(_ scenario: String) -> String {
        #"""
        { "domain": "d", "endpoints": [ { "id": "feed", "method": "GET", "path": "/feed",
          "scenarios": [ \#(scenario) ] } ] }
        """#
    }

    @Test(arguments: [
        (#"{ "name": "s", "expect": "success", "events": [ { "event": "x" } ] }"#, ".events[0].data", "is required"),
        (#"{ "name": "s", "expect": "success", "events": [ { "data": "a", "colour": "red" } ] }"#, ".events[0].colour", "unknown key"),
        (#"{ "name": "s", "expect": "success", "events": [ { "data": "a", "id": "1\n2" } ] }"#, ".events[0].id", "on one line"),
        (#"{ "name": "s", "expect": "success", "events": [ { "data": "a", "delayMs": -1 } ] }"#, ".events[0].delayMs", "0...60000"),
        (#"{ "name": "s", "expect": "success", "events": [ ] }"#, ".events", "lists no event"),
        (#"{ "name": "s", "expect": "success", "events": 3 }"#, ".events", "expected a list of events"),
        (#"{ "name": "s", "expect": "success", "events": "../out.json" }"#, ".events", "inside the fixtures folder"),
        (#"{ "name": "s", "expect": "success", "events": "missing.json" }"#, ".events", "fixture \"missing.json\" not found"),
        (#"{ "name": "s", "expect": "success", "events": "ok.json" }"#, ".events", "ok.json: expected a list of events"),
        (#"{ "name": "s", "expect": "success", "body": "ok.json", "events": [ { "data": "a" } ] }"#, "", "its own body"),
        (#"{ "name": "s", "expect": "success", "events": [ { "data": "a" } ], "afterLast": "repeatLast" }"#,
         ".afterLast", "is not one of close, keepOpen"),
        (#"{ "name": "s", "status": 200, "expect": "success", "afterLast": "close" }"#, ".afterLast", "\"sequence\" or \"events\""),
        (#"{ "name": "s", "expect": "success", "template": true, "events": [ { "data": "{{nope}}" } ] }"#, ".events[0].data", "nope"),
        (#"{ "name": "s", "expect": "success", "template": true, "events": "broken.json" }"#, ".events (broken.json[0].data)", "nope"),
    ])
    func badEvents_AreALoadError_NamingWhereAndWhy(scenario: String, path: String, reason: String) throws {
        let found = try loadProblems(contracts: ["feed.json": Self.contract(scenario)],
                                     fixtures: ["ok.json": "{}", "broken.json": #"[{"data": "{{nope}}"}]"#])
        let problem = try #require(found.first, "no problem for \(scenario)")
        #expect(found.count == 1, "\(found)")
        #expect(problem.path == "$.endpoints[0].scenarios[0]" + path)
        #expect(problem.reason.contains(reason), "\(problem.reason)")
    }

    @Test func events_Load_AsTheModel_WithStatus200_AndFromAFixture() throws {
        let scenarios = #"""
            { "name": "inline", "expect": "success", "events": [ { "data": "hi", "event": "t", "id": "1", "retry": 9, "delayMs": 5 } ] },
            { "name": "file", "status": 206, "expect": "success", "events": "feed/list.json", "afterLast": "keepOpen" }
            """#
        #expect(try loadProblems(contracts: ["feed.json": Self.contract(scenarios)],
                                 fixtures: ["feed/list.json": #"[{"data": "x"}]"#]) == [])
        var parser = ContractParser(file: "feed.json")
        let parsed = parser.parse(try JSONValue.parse(Array(Self.contract(scenarios).utf8)))
        let list = try #require(parsed?.endpoints.first?.scenarios)
        #expect(list[0].status == 200)
        #expect(list[0].events == EventScript(source: .inline([ServerEvent(event: "t", data: "hi", id: "1", retry: 9, delayMs: 5)]),
                                              afterLast: .close))
        #expect(list[1].events == EventScript(source: .fixture("feed/list.json"), afterLast: .keepOpen))
        #expect(ServerEvent(event: "t", data: "a\nb", id: "1").encoded() == Array("event: t\nid: 1\ndata: a\ndata: b\n\n".utf8))
    }

    @Test func dataFromARequest_CannotStartAFieldOrAnEventOfItsOwn() {
        // CRLF, a lone CR and a lone LF each end a line, as a client splits them: each piece stays data.
        #expect(ServerEvent(data: "a\r\nb").encoded() == Array("data: a\ndata: b\n\n".utf8))
        #expect(ServerEvent(data: "x\rid: 9\r\revent: evil").encoded()
            == Array("data: x\ndata: id: 9\ndata: \ndata: event: evil\n\n".utf8))
        #expect(ServerEvent(event: "a\nid: 2", data: "").encoded() == Array("event: a id: 2\ndata: \n\n".utf8))
    }
}
