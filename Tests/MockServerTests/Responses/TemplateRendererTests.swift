import ContractModel
@testable import HTTPCore
@testable import MockServer
import Testing

/// Filling a parsed response template from one request, without a socket.
struct TemplateRendererTests {
    private static let context = ResponseTemplate.Context(
        pathParameters: ["id": FieldType(kind: .integer), "name": FieldType(kind: .string)],
        query: [
            "page": FieldType(kind: .integer, isOptional: true), "ratio": FieldType(kind: .number, isOptional: true),
            "flag": FieldType(kind: .boolean, isOptional: true), "q": FieldType(kind: .string, isOptional: true),
        ],
        isJSON: true
    )

    /// Parses `template` for the test endpoint and renders it for `input`.
    private static func render(
        _ template: String,
        isJSON: Bool = true,
        _ input: TemplateInput
    ) throws -> Result<String, MissingValue> {
        var context = context
        context.isJSON = isJSON
        let parsed = try ResponseTemplate.parse(Array(template.utf8), context: context)
        return TemplateRenderer.render(parsed, input).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    // MARK: - Request values

    @Test func pathQueryAndHeaderValues_AreEchoed() throws {
        // GIVEN a request with path parameters, a repeated query parameter and a header
        let input = TemplateInput.make(pathParameters: ["id": "7", "name": "Ann"],
                                       query: [("page", "2"), ("page", "3"), ("q", "a b")],
                                       headers: [("X-Request-Id", "abc-1")])

        // WHEN a template reads them
        let output = try Self.render(#"""
            {"id": {{path.id}}, "name": "{{path.name}}", "page": {{query.page}}, "q": {{query.q}},
             "req": {{header.x-request-id}}}
            """#, input)

        // THEN typed values are bare, strings are quoted, the first query value wins, header names ignore case
        #expect(output == .success(#"""
            {"id": 7, "name": "Ann", "page": 2, "q": "a b",
             "req": "abc-1"}
            """#))
    }

    @Test func headerWithQuotesBackslashesAndNewline_StaysValidJSON() throws {
        // GIVEN a header value holding every character that must be escaped in a JSON string
        let note = "a \"quoted\" \\ back\nline\t."
        let input = TemplateInput.make(headers: [("X-Note", note)])

        // WHEN it is inserted inside a string and bare
        let output = try Self.render(#"{"echo": "got {{header.X-Note}}", "bare": {{header.X-Note}}}"#, input).get()

        // THEN the output parses, with the value intact
        #expect(try Self.json(output) == .object(["echo": .string("got " + note), "bare": .string(note)]))
    }

    @Test(arguments: [("007", "7"), ("-0", "0"), ("+5", "5")])
    func bareInteger_IsWrittenAsAJSONNumber(text: String, expected: String) throws {
        let output = try Self.render(#"{"page": {{query.page}}}"#, .make(query: [("page", text)]))
        #expect(output == .success(#"{"page": \#(expected)}"#))
    }

    @Test func bareNumberAndBoolean_AreWrittenAsJSON() throws {
        let input = TemplateInput.make(query: [("ratio", "1.50"), ("flag", "true")])
        let output = try Self.render(#"[{{query.ratio}}, {{query.flag}}]"#, input)
        #expect(output == .success("[1.5, true]"))
    }

    @Test func textTemplate_InsertsValuesAsTheyAre() throws {
        let output = try Self.render(#"Hi {{path.name}} ({{query.q}}) {{"{{"}}"#, isJSON: false,
                                     .make(pathParameters: ["name": #"A "B" \"#], query: [("q", "007")]))
        #expect(output == .success(#"Hi A "B" \ (007) {{"#))
    }

    @Test func quotedLiteral_IsAJSONString_WhenBare() throws {
        #expect(try Self.render(#"[{{"{{"}}, "<{{"{{"}}>"]"#, .make()) == .success(#"["{{", "<{{>"]"#))
    }

    // MARK: - Body

    @Test func bodyPointer_ReadsAJSONBody() throws {
        // GIVEN a JSON body
        let body = #"{"user": {"name": "Ann \"A\"", "tags": ["a", "b"], "age": 30}}"#
        let input = TemplateInput.make(body: body, contentType: "application/json; charset=utf-8")

        // WHEN a template reads values of every kind from it, bare and inside strings
        let output = try Self.render(#"""
            {"name": {{body/user/name}}, "tags": {{body/user/tags}}, "hi": "hi {{body/user/name}}",
             "age": "{{body/user/age}}", "all": {{body}}}
            """#, input).get()

        // THEN bare values keep their JSON type and values inside strings are their text
        #expect(try Self.json(output) == .object([
            "name": .string(#"Ann "A""#), "tags": .array([.string("a"), .string("b")]), "hi": .string(#"hi Ann "A""#),
            "age": .string("30"), "all": try Self.json(body),
        ]))
    }

    @Test func bodyPointer_ReadsAJSONBody_WhenThereIsNoContentType() throws {
        let output = try Self.render(#"{"a": {{body/a/1}}}"#, .make(body: #"{"a": [1, {"b": null}]}"#))
        #expect(output == .success(#"{"a": {"b":null}}"#))
    }

    @Test func bodyPointer_ReadsAFormBody() throws {
        // GIVEN a form body with `+` for spaces, a percent-escaped `+`, UTF-8 and a repeated field
        let input = TemplateInput.make(body: "name=Ann+Lee&city=S%C3%A3o+Paulo&sum=1%2B1&name=Bob",
                                       contentType: "application/x-www-form-urlencoded; charset=utf-8")

        // WHEN a template reads fields
        let output = try Self.render(#"{"name": {{body/name}}, "city": "{{body/city}}", "sum": {{body/sum}}}"#, input)

        // THEN each field is its first decoded text
        #expect(output == .success(#"{"name": "Ann Lee", "city": "São Paulo", "sum": "1+1"}"#))
    }

    // MARK: - Missing values

    @Test func missingValues_UseTheirFallbacks() throws {
        // GIVEN a request with no query, no such header and a body that is not JSON
        let input = TemplateInput.make(body: "plain", contentType: "text/plain")

        // WHEN a template gives fallbacks for them
        let output = try Self.render(
            #"{"page": {{query.page|1}}, "q": "{{query.q|all "x"}}", "h": {{header.X-None|none}}, "b": {{body/a|[]}}}"#,
            input)

        // THEN each fallback is inserted by the placeholder's rules
        #expect(output == .success(#"{"page": 1, "q": "all \"x\"", "h": "none", "b": []}"#))
    }

    @Test(arguments: [
        (#"{"h": "{{header.X-None}}"}"#, "{{header.X-None}}"),
        (#"{"p": {{query.page}}}"#, "{{query.page}}"),
        (#"{"b": {{ body/missing }}}"#, "{{ body/missing }}"),
    ])
    func missingValue_IsAFailure_WhenThereIsNoFallback(template: String, placeholder: String) throws {
        let output = try Self.render(template, .make(body: #"{"a": 1}"#))
        #expect(output == .failure(MissingValue(placeholder: placeholder)))
    }

    @Test func badlyTypedValue_CountsAsMissing_WhenItCannotBeABareJSONValue() throws {
        let input = TemplateInput.make(query: [("page", "two")])
        #expect(try Self.render(#"{"p": {{query.page|1}}}"#, input) == .success(#"{"p": 1}"#))
        #expect(try Self.render(#"{"p": {{query.page}}}"#, input)
                    == .failure(MissingValue(placeholder: "{{query.page}}")))
    }

    // MARK: - Generated values

    @Test func counter_IsTheCallersValue() throws {
        #expect(try Self.render(#"{"n": {{counter}}, "s": "n-{{counter}}"}"#, .make(counter: 3))
                    == .success(#"{"n": 3, "s": "n-3"}"#))
    }

    @Test func now_IsUTCToTheSecond_AndEpochSeconds() throws {
        let output = try Self.render(#"{"at": {{now}}, "epoch": {{now.epoch}}}"#, .make(now: (784_111_777, 999)))
        #expect(output == .success(#"{"at": "1994-11-06T08:49:37Z", "epoch": 784111777}"#))
    }

    @Test func now_ReadsBackAsTheWallClock() throws {
        // GIVEN the current time
        let clock = POSIX.wallClock()

        // WHEN it is rendered
        let text = try Self.render("{{now}}", isJSON: false, .make(now: clock)).get()

        // THEN it reads back as an ISO 8601 instant within a few seconds of the clock
        let parsed = try #require(HTTPDate.parseISO8601(text))
        #expect(text.utf8.count == 20)
        #expect(abs(parsed.0 - POSIX.wallClock().seconds) <= 5)
    }

    @Test func uuid_IsALowerCaseVersion4UUID_AndDiffersEachTime() throws {
        // WHEN two responses are rendered
        let first = try Self.render("{{uuid}}", isJSON: false, .make()).get()
        let second = try Self.render("{{uuid}}", isJSON: false, .make()).get()

        // THEN each is 8-4-4-4-12 lower-case hex, version 4, RFC 4122 variant, and they differ
        for text in [first, second] {
            let groups = text.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.map(\.count) == [8, 4, 4, 4, 12], "\(text)")
            #expect(text.allSatisfy { $0 == "-" || ("0"..."9").contains($0) || ("a"..."f").contains($0) }, "\(text)")
            #expect(groups.count == 5 && groups[2].first == "4", "\(text)")
            #expect(groups.count == 5 && groups[3].first.map { "89ab".contains($0) } == true, "\(text)")
        }
        #expect(first != second)
    }
}
