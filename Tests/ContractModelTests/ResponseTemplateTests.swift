import ContractModel
import Testing

/// Parsing a fixture marked `"template": true`: what each `{{…}}` reads, how it will be inserted, and the
/// problems reported at contract load with the position of the placeholder.
struct ResponseTemplateTests {
    typealias Source = ResponseTemplate.Source

    private static let endpointContext = ResponseTemplate.Context(
        pathParameters: ["id": FieldType(kind: .integer), "name": FieldType(kind: .string)],
        query: [
            "page_no": FieldType(kind: .integer), "items_per_page": FieldType(kind: .integer, isOptional: true),
            "ratio": FieldType(kind: .number), "flag": FieldType(kind: .boolean), "q": FieldType(kind: .string),
        ],
        isJSON: true
    )

    private static func parse(
        _ text: String,
        isJSON: Bool = true
    ) throws(ResponseTemplate.Problem) -> ResponseTemplate {
        var context = endpointContext
        context.isJSON = isJSON
        return try ResponseTemplate.parse(Array(text.utf8), context: context)
    }

    private static func problem(
        _ text: String,
        isJSON: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ResponseTemplate.Problem? {
        #expect(throws: ResponseTemplate.Problem.self, sourceLocation: sourceLocation) {
            try parse(text, isJSON: isJSON)
        }
    }

    // MARK: - Sources

    @Test(arguments: [
        ("path.id", Source.path("id")),
        ("query.page_no", .query("page_no")),
        ("header.X-Request-Id", .header("X-Request-Id")),
        ("header.x.y", .header("x.y")),
        ("body", .body(pointer: "")),
        ("body/user/name", .body(pointer: "/user/name")),
        ("body/a/0/b~1c", .body(pointer: "/a/0/b~1c")),
        ("now", .now),
        ("now.epoch", .nowEpoch),
        ("uuid", .uuid),
        ("counter", .counter),
        (#""{{""#, .literal("{{")),
        (#"" a|b ""#, .literal(" a|b ")),
        ("  path.name\t", .path("name")),
    ])
    func placeholder_ReadsItsSource_WhenTheExpressionIsValid(expression: String, source: Source) throws {
        // GIVEN a text template holding one placeholder
        let text = "<{{\(expression)}}>"

        // WHEN it is parsed
        let template = try Self.parse(text, isJSON: false)

        // THEN it is a literal, the placeholder as written, and a literal
        #expect(template.placeholders.map(\.source) == [source])
        #expect(template.placeholders.first?.text == "{{\(expression)}}")
        #expect(template.placeholders.first?.fallback == nil)
        #expect(template.pieces.count == 3)
    }

    @Test func usesCounterAndUsesBody_AreSet_OnlyWhenAPlaceholderReadsThem() throws {
        #expect(try Self.parse("{{counter}}", isJSON: false).usesCounter)
        #expect(try Self.parse("{{body/a}}", isJSON: false).usesBody)
        let plain = try Self.parse("{{uuid}} {{path.id}}", isJSON: false)
        #expect(!plain.usesCounter && !plain.usesBody)
    }

    // MARK: - Insertion

    @Test func insertion_IsDecidedByPositionAndType_WhenTheTemplateIsJSON() throws {
        // GIVEN a JSON template with placeholders inside strings and bare, of every type
        let text = #"""
            {"id": {{path.id}}, "name": "{{path.name}}", "label": "n-{{path.id}}", "page": {{query.page_no}},
             "ratio": {{query.ratio}}, "flag": {{query.flag}}, "q": {{query.q}}, "h": {{header.X-A}},
             "at": {{now}}, "epoch": {{now.epoch}}, "u": {{uuid}}, "n": {{counter}}, "b": {{body/a}},
             "all": {{body}}, "lit": {{"x"}}}
            """#

        // WHEN it is parsed
        let template = try Self.parse(text)

        // THEN strings escape, typed values are raw, bodies are JSON values and other values are quoted
        #expect(template.placeholders.map(\.insertion) == [
            .raw, .jsonEscaped, .jsonEscaped, .raw,
            .raw, .raw, .jsonQuoted, .jsonQuoted,
            .jsonQuoted, .raw, .jsonQuoted, .raw, .jsonValue,
            .jsonValue, .jsonQuoted,
        ])
    }

    @Test func insertion_TracksStrings_WhenLiteralsHoldEscapedQuotesAndBackslashes() throws {
        // GIVEN a key holding `\"` before a placeholder, and a value ending in an escaped backslash
        let text = #"{"a\"{{path.name}}": "\\", "b": {{path.name}}, "c": "\"{{path.name}}\""}"#

        // WHEN it is parsed
        let template = try Self.parse(text)

        // THEN the escaped quote keeps the key open and the escaped backslash lets the string close
        #expect(template.placeholders.map(\.insertion) == [.jsonEscaped, .jsonQuoted, .jsonEscaped])
    }

    @Test func insertion_IsAlwaysRaw_WhenTheTemplateIsNotJSON() throws {
        let template = try Self.parse(#"Hi {{path.name}}, "{{query.q}}" {{body}} {{path.id}} {{"x"}}"#, isJSON: false)
        #expect(template.placeholders.map(\.insertion) == [.raw, .raw, .raw, .raw, .raw])
    }

    // MARK: - Defaults and literal text

    @Test(arguments: [
        ("{{query.items_per_page | 20 }}", "20"),
        ("{{header.X|a|b}}", "a|b"),
        ("{{header.X|}}", ""),
        ("{{body/a|[1, 2]}}", "[1, 2]"),
    ])
    func fallback_IsTheTrimmedTextAfterTheFirstBar(text: String, fallback: String) throws {
        #expect(try Self.parse(text, isJSON: false).placeholders.map(\.fallback) == [fallback])
    }

    @Test func fallback_IsAccepted_WhenItFitsABareJSONPosition() throws {
        // An object default needs a space before `}}`: the first `}}` closes the placeholder.
        let text = #"""
            {"p": {{query.page_no|1}}, "r": {{query.ratio|0.5}}, "b": {{body/a|{"x": [true]} }},
             "s": "{{query.page_no|one}}"}
            """#
        let template = try Self.parse(text)
        #expect(template.placeholders.map(\.fallback) == ["1", "0.5", #"{"x": [true]}"#, "one"])
    }

    @Test func template_IsOneLiteral_WhenItHasNoPlaceholders() throws {
        // GIVEN a JSON document with a lone `}}` and a single `{`
        let text = #"{"a": "}} {", "b": [1, 2]}"#

        // WHEN it is parsed
        let template = try Self.parse(text)

        // THEN it is one literal piece holding every byte
        #expect(template.pieces.count == 1)
        guard case .literal(let bytes) = try #require(template.pieces.first) else {
            Issue.record("not a literal")
            return
        }
        #expect(bytes == Array(text.utf8))
    }

    @Test func literals_AreMerged_BetweenPlaceholders() throws {
        let template = try Self.parse("a{{uuid}}{{uuid}}bc", isJSON: false)
        let kinds = template.pieces.map { piece in
            switch piece {
            case .literal(let bytes): String(decoding: bytes, as: UTF8.self)
            case .placeholder(let placeholder): placeholder.text
            }
        }
        #expect(kinds == ["a", "{{uuid}}", "{{uuid}}", "bc"])
    }

    @Test func placeholder_RecordsItsOneBasedBytePosition() throws {
        let template = try Self.parse("{\n  \"é\": {{ path.id | 7 }}\n}")
        let placeholder = try #require(template.placeholders.first)
        #expect(placeholder.text == "{{ path.id | 7 }}")
        #expect((placeholder.line, placeholder.column) == (2, 9))  // `é` is two bytes
    }

    // MARK: - Problems

    @Test func unclosedPlaceholder_IsAProblem_AtItsOpeningBraces() throws {
        let problem = try #require(Self.problem("{\n  \"a\": 1,\n  \"b\": \"{{path.id\"\n}"))
        #expect((problem.line, problem.column) == (3, 9))
        #expect(problem.message.contains("unclosed placeholder"))
        #expect(problem.message.contains(#"{{path.id""#))
    }

    @Test func unclosedPlaceholder_IsAProblem_AfterALoneClosingPair() throws {
        let problem = try #require(Self.problem("}} {{x", isJSON: false))
        #expect((problem.line, problem.column) == (1, 4))
    }

    @Test(arguments: ["foo", "", "path", "path.", "query.", "header.", "header.X A", "now.x", "nowepoch", "bodyx",
                      "body.a", "uuid.x", #""open"#, #""a" b"#])
    func unknownPlaceholder_IsAProblem_NamingTheGrammar(expression: String) throws {
        let problem = try #require(Self.problem("ab\n  {{\(expression)}}", isJSON: false))
        #expect((problem.line, problem.column) == (2, 3))
        #expect(problem.message == "unknown placeholder {{\(expression)}}; use path.<name>, query.<name>, "
                    + #"header.<name>, body/<pointer>, now, now.epoch, uuid, counter or "text""#)
    }

    @Test func problem_Description_StartsWithItsPosition() throws {
        let problem = try #require(Self.problem("\n\n            {{foo}}", isJSON: false))
        #expect(problem.description == "line 3, column 13: unknown placeholder {{foo}}; use path.<name>, "
                    + #"query.<name>, header.<name>, body/<pointer>, now, now.epoch, uuid, counter or "text""#)
    }

    @Test func quotedLiteral_WithADefault_IsAProblem() throws {
        let problem = try #require(Self.problem(#"{{"a"|b}}"#, isJSON: false))
        #expect(problem.message.contains(#"{{"a"|b}}"#) && problem.message.contains("no default"))
    }

    @Test func bodyPointer_WithABadTildeEscape_IsAProblem() throws {
        let problem = try #require(Self.problem("x {{body/a~2}}", isJSON: false))
        #expect((problem.line, problem.column) == (1, 3))
        #expect(problem.message.contains("{{body/a~2}}") && problem.message.contains("~0"))
    }

    @Test func undeclaredPathParameter_IsAProblem_NamingTheEndpointsParameters() throws {
        let problem = try #require(Self.problem(#"{"s": "{{path.slug}}"}"#))
        #expect((problem.line, problem.column) == (1, 8))
        #expect(problem.message.contains("{{path.slug}}") && problem.message.contains("id, name"))

        let none = #expect(throws: ResponseTemplate.Problem.self) {
            try ResponseTemplate.parse(Array("{{path.id}}".utf8), context: .init(isJSON: false))
        }
        #expect(none?.message.contains("no path parameters") == true)
    }

    @Test func undeclaredQueryParameter_IsAProblem_NamingTheDeclaredOnes() throws {
        let problem = try #require(Self.problem(#"{"s": {{query.sort}}}"#))
        #expect((problem.line, problem.column) == (1, 7))
        #expect(problem.message.contains("{{query.sort}}") && problem.message.contains("request.query"))
        #expect(problem.message.contains("flag, items_per_page, page_no, q, ratio"))
    }

    @Test(arguments: [
        (#"{"p": {{query.page_no|one}}}"#, "{{query.page_no|one}}", "integer"),
        (#"{"p": {{query.page_no|007}}}"#, "{{query.page_no|007}}", "integer"),
        (#"{"p": {{query.flag|yes}}}"#, "{{query.flag|yes}}", "boolean"),
        (#"{"p": {{counter|x}}}"#, "{{counter|x}}", "integer"),
    ])
    func typedFallback_IsAProblem_WhenItDoesNotFitItsBareJSONPosition(
        text: String,
        shown: String,
        type: String
    ) throws {
        let problem = try #require(Self.problem(text))
        #expect((problem.line, problem.column) == (1, 7))
        #expect(problem.message.contains(shown) && problem.message.contains(type))
    }

    @Test func bodyFallback_IsAProblem_WhenItIsNotJSON() throws {
        let problem = try #require(Self.problem("{\n \"b\": {{body/a|nope}}}"))
        #expect((problem.line, problem.column) == (2, 7))
        #expect(problem.message.contains("{{body/a|nope}}") && problem.message.contains("JSON"))
    }

    @Test(arguments: [
        ("{\n  \"a\": 1\n  \"b\": {{uuid}}\n}", 3, 3),          // a missing comma before a key
        (#"{"a": {{uuid}} 1}"#, 1, 16),                          // a stray value after a placeholder
        (#"{"a": x{{uuid}}}"#, 1, 7),                            // a stray letter
        (#"{"a": {{path.name}}{{path.name}}}"#, 1, 20),          // two strings side by side: at the second
        ("", 1, 1),                                               // nothing at all
    ])
    func template_IsAProblem_WhenItIsNotJSONOnceFilledIn(text: String, line: Int, column: Int) throws {
        let problem = try #require(Self.problem(text))
        #expect((problem.line, problem.column) == (line, column))
        #expect(problem.message.hasPrefix("the template is not valid JSON once filled in: "))
    }

    @Test func template_IsNotCheckedAsJSON_WhenTheContentTypeIsNot() throws {
        #expect(try Self.parse(#"{"a": x{{uuid}}"#, isJSON: false).pieces.count == 2)
    }
}

extension ResponseTemplate {
    /// The placeholders in order, without the literal text between them.
    var placeholders: [Placeholder] {
        pieces.compactMap { piece in
            guard case .placeholder(let placeholder) = piece else { return nil }
            return placeholder
        }
    }
}
