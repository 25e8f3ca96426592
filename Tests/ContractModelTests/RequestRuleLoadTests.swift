@testable import ContractModel
import Testing

/// `when` is checked at load, every problem named with the file, the JSON path, the endpoint and the scenario.
struct RequestRuleLoadTests {
    private static func contract(when: String) -> String {
        #"""
        { "domain": "d", "endpoints": [ { "id": "books", "method": "POST", "path": "/books/{shelf}",
          "request": { "query": { "page": "integer?" }, "body": { "type": "json", "fields": { "count": "integer?" } } },
          "scenarios": [
            { "name": "ok", "status": 200, "expect": "success" },
            { "name": "picked", "status": 201, "expect": "success", "when": \#(when) } ] } ] }
        """#
    }

    @Test(arguments: [
        (#"{ "query": { "q": { "regex": "(unclosed" } } }"#, ".when.query.q.regex", "is not a regular expression"),
        (#"{ "query": { "q": { "like": "a" } } }"#, ".when.query.q.like", "unknown matcher"),
        (#"{ "query": { "q": { "prefix": "a", "contains": "b" } } }"#, ".when.query.q", "exactly one of"),
        (#"{ "query": { "q": 3 } }"#, ".when.query.q", "expected a string, or an object"),
        (#"{ "body": { "kind": "gift" } }"#, ".when.body.kind", "is not an RFC 6901 pointer"),
        (#"{ "body": { "/a~2b": "x" } }"#, ".when.body./a~2b", "is not an RFC 6901 pointer"),
        (#"{ "pathParams": { "id": "7" } }"#, ".when.pathParams.id", "the path has no parameter {id}; it has {shelf}"),
        (#"{ "query": { "page": "two" } }"#, ".when.query.page", "can never hold: \"two\" is not a value of query.page"),
        (#"{ "query": { "page": { "oneOf": ["1", "x"] } } }"#, ".when.query.page", "\"x\" is not a value"),
        (#"{ "body": { "/count": "many" } }"#, ".when.body./count", "declares as integer?"),
        (#"{ "cookie": { "a": "b" } }"#, ".when.cookie", "unknown key"),
        (#"{ }"#, ".when", "must name at least one of body, cookies, headers, pathParams, query"),
        (#"{ "query": { } }"#, ".when.query", "an empty one, which would make the rule hold for any request"),
        (#"[ ]"#, ".when", "at least one rule"),
        (#""fantasy""#, ".when", "expected an object"),
        (#"{ "query": { "q": { "present": "yes" } } }"#, ".when.query.q.present", "expected true or false"),
        (#"{ "query": { "q": { "oneOf": [] } } }"#, ".when.query.q.oneOf", "non-empty array"),
        (#"{ "query": { "q": { "contains": "" } } }"#, ".when.query.q.contains", "is empty, so it would hold for any value"),
    ])
    func badRule_IsALoadError_NamingWhereAndWhy(when: String, path: String, reason: String) throws {
        let found = try loadProblems(contracts: ["books.json": Self.contract(when: when)])
        let problem = try #require(found.first, "no problem for \(when)")
        #expect(found.count == 1, "\(found)")
        #expect(problem.path == "$.endpoints[0].scenarios[1]" + path)
        #expect(problem.reason.contains(reason), "\(problem.reason)")
        #expect(problem.description.contains("books.json") && problem.description.contains("books")
            && problem.description.contains("\"picked\""), "\(problem.description)")
    }

    @Test func wholeNumbers_AreSpelledAsIntegers_UpTo64Bits() {
        #expect(Matcher.text(of: .number(1_000_000_000_000_000)) == "1000000000000000")
        #expect(Matcher.text(of: .number(-42)) == "-42")
        #expect(Matcher.text(of: .number(2.5)) == "2.5")
        #expect(Matcher.equals(.number(1e15)).comparedTexts == ["1000000000000000"])
    }

    @Test func goodRules_Load_AsTheModel() throws {
        var parser = ContractParser(file: "books.json")
        let document = try JSONValue.parse(Array(Self.contract(when: #"""
            [ { "query": { "page": { "oneOf": ["1", "2"] } }, "headers": { "X-Kind": { "not": { "prefix": "a" } } } },
              { "body": { "/count": { "equals": 3 } }, "cookies": { "sid": { "present": true } },
                "pathParams": { "shelf": { "regex": "[a-z]+" } } } ]
            """#).utf8))
        let parsed = parser.parse(document)
        let contract = try #require(parsed)
        #expect(parser.problems.isEmpty, "\(parser.problems)")
        let rules = try #require(contract.endpoints.first?.scenarios.last?.when)
        #expect(rules == [
            RequestRule(conditions: [
                RuleCondition(source: .query("page"), matcher: .oneOf([.string("1"), .string("2")])),
                RuleCondition(source: .header("x-kind"), matcher: .not(.prefix("a"))),
            ]),
            RequestRule(conditions: [
                RuleCondition(source: .pathParameter("shelf"), matcher: .regex("[a-z]+")),
                RuleCondition(source: .cookie("sid"), matcher: .present(true)),
                RuleCondition(source: .body(pointer: "/count"), matcher: .equals(.number(3))),
            ]),
        ])
    }
}
