@testable import ContractModel
import Testing

/// A WebSocket endpoint and its scripts are checked at load, and written back the way they were read.
struct WebSocketLoadTests {
    private static func contract(_ scenario: String, endpoint: String = #""websocket": true,"#, method: String = "GET") -> String {
        #"""
        { "domain": "d", "endpoints": [ { "id": "chat", "method": "\#(method)", "path": "/chat", \#(endpoint)
          "scenarios": [ \#(scenario) ] } ] }
        """#
    }

    @Test(arguments: [
        (#"{ "name": "s", "expect": "success", "echo": true }"#, #""websocket": false,"#, "", "belong to an endpoint with \"websocket\": true"),
        (#"{ "name": "s", "expect": "success", "echo": true }"#, #""websocket": true,"#, ".method", "opened with GET, not POST"),
        (#"{ "name": "s", "expect": "success", "echo": true, "status": 200 }"#, #""websocket": true,"#, ".status", "answers the upgrade with 101"),
        (#"{ "name": "s", "expect": "success" }"#, #""websocket": true,"#, "", "needs a script"),
        (#"{ "name": "s", "expect": "success", "onConnect": [ { "text": "a", "json": 1 } ] }"#, #""websocket": true,"#,
         ".onConnect[0]", "exactly one of text, json, binary"),
        (#"{ "name": "s", "expect": "success", "onConnect": [ { "binary": "@@" } ] }"#, #""websocket": true,"#,
         ".onConnect[0].binary", "is not base64"),
        (#"{ "name": "s", "expect": "success", "onConnect": [ { "text": "a", "delayMs": -5 } ] }"#, #""websocket": true,"#,
         ".onConnect[0].delayMs", "0...60000"),
        (#"{ "name": "s", "expect": "success", "replies": [ { "when": { "text": "a" } } ] }"#, #""websocket": true,"#,
         ".replies[0].send", "is required"),
        (#"{ "name": "s", "expect": "success", "replies": [ { "when": { "json": { "type": "a" } }, "send": [] } ] }"#,
         #""websocket": true,"#, ".replies[0].when.json.type", "is not a JSON pointer"),
        (#"{ "name": "s", "expect": "success", "replies": [ { "when": { "text": { "regex": "(" } }, "send": [] } ] }"#,
         #""websocket": true,"#, ".replies[0].when.text.regex", "not a regular expression"),
        (#"{ "name": "s", "expect": "success", "replies": [ { "when": { "body": "a" }, "send": [] } ] }"#,
         #""websocket": true,"#, ".replies[0].when.body", "unknown key"),
        (#"{ "name": "s", "expect": "success", "close": { "code": 1005 } }"#, #""websocket": true,"#, ".close.code", "may not be sent"),
        (#"{ "name": "s", "expect": "success", "close": { "afterMessages": 0 } }"#, #""websocket": true,"#,
         ".close.afterMessages", "1...1000000"),
        (#"{ "name": "s", "expect": "success", "events": [ { "data": "a" } ] }"#, #""websocket": true,"#, ".events", "not server-sent events"),
        (#"{ "name": "s", "expect": "success", "echo": true }"#, #""websocket": true, "subprotocols": ["a b"],"#,
         ".subprotocols[0]", "is not a token"),
    ])
    func badWebSockets_AreALoadError_NamingWhereAndWhy(scenario: String, endpoint: String, path: String, reason: String) throws {
        let method = reason.contains("POST") ? "POST" : "GET"
        let found = try loadProblems(contracts: ["chat.json": Self.contract(scenario, endpoint: endpoint, method: method)])
        let problem = try #require(found.first, "no problem for \(scenario)")
        #expect(found.count == 1, "\(found)")
        let prefix = path == ".method" || path.hasPrefix(".subprotocols") ? "$.endpoints[0]" : "$.endpoints[0].scenarios[0]"
        #expect(problem.path == prefix + path)
        #expect(problem.reason.contains(reason), "\(problem.reason)")
    }

    @Test func aScript_LoadsAsTheModel_AndIsWrittenBackTheSame() throws {
        let text = Self.contract(#"""
            { "name": "chat", "expect": "success",
              "onConnect": [ { "json": { "type": "welcome" } }, { "binary": "AAEC", "delayMs": 20 } ],
              "replies": [ { "when": { "json": { "/type": "ping", "/n": { "present": true } } }, "send": [ { "text": "pong", "delayMs": 5 } ] },
                           { "when": { "text": { "prefix": "bye" } }, "send": [] }, { "send": [ { "text": "any" } ] } ],
              "echo": true, "close": { "code": 4001, "reason": "done", "afterMessages": 3, "afterMs": 500 } },
            { "name": "refused", "status": 401, "expect": "requestErr" }
            """#, endpoint: #""websocket": true, "subprotocols": ["v2.chat", "v1.chat"],"#)
        #expect(try loadProblems(contracts: ["chat.json": text]) == [])
        var parser = ContractParser(file: "chat.json")
        let parsed = try #require(parser.parse(try JSONValue.parse(Array(text.utf8))))
        let endpoint = try #require(parsed.endpoints.first)
        #expect(endpoint.isWebSocket)
        #expect(endpoint.subprotocols == ["v2.chat", "v1.chat"])
        let script = try #require(endpoint.scenarios[0].webSocket)
        #expect(script.onConnect == [.init(.json(.object(["type": .string("welcome")]))), .init(.binary([0, 1, 2]), delayMs: 20)])
        #expect(script.replies[0].when == .json([.init(pointer: "/n", matcher: .present(true)),
                                                 .init(pointer: "/type", matcher: .equals(.string("ping")))]))
        #expect(script.replies[1].when == .text(.prefix("bye")))
        #expect(script.replies[2].when == nil)
        #expect(script.echo)
        #expect(script.close == .init(code: 4001, reason: "done", afterMessages: 3, afterMs: 500))
        #expect(endpoint.scenarios[1].webSocket == nil)
        // Written and read again: the same model.
        let written = ContractWriter.bytes(ContractWriter.document(parsed))
        var again = ContractParser(file: "chat.json")
        let reread = again.parse(try JSONValue.parse(written))
        #expect(again.problems.isEmpty, "\(again.problems)")
        #expect(reread == parsed)
    }
}
