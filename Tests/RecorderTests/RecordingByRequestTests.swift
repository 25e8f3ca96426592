import ContractModel
import Foundation
@testable import Recorder
import Testing

/// Recordings answer each request by what it says, in any order and in a fresh session: `when` rules where the
/// requests differ, auth where only credentials do, a sequence only where the same request was answered otherwise.
@Suite(.timeLimit(.minutes(2))) struct RecordingByRequestTests {
    static let books: [RecordedExchange] = [
        .make("/v2/books", query: "genre=tech&page=1", body: #"{"books":["SICP"],"page":1}"#),
        .make("/v2/books", query: "genre=fantasy&page=1", body: #"{"books":["Earthsea"],"page":1}"#),
        .make("/v2/books", query: "genre=tech&page=2", body: #"{"books":["TAOCP"],"page":2}"#),
    ]

    @Test func answersThatDifferByQuery_AreRules_AndReplayInAnyOrder() throws {
        let folders = try RecordingFolders()
        _ = try folders.writer().write(Self.books)
        let contracts = try #require(folders.validate())
        let list = try #require(contracts.endpoints.first)
        #expect(contracts.endpoints.count == 1)
        #expect(!list.scenarios.contains { $0.sequence != nil }, "no sequence: no request was answered twice")
        // The first recorded answer is the default; each other answer is picked by genre and page together.
        #expect(list.scenarios.first?.when == [])
        #expect(list.scenarios.dropFirst().map { $0.when.first?.conditions.map(\.source.description) }
            == [["query.genre", "query.page"], ["query.genre", "query.page"]])
        try Replay.expectRecordedAnswers(Replay.shuffled(Self.books), folders: folders, sessions: true)
    }

    @Test func answersThatDifferByOneQueryValue_AreOneRuleWithOneOf() throws {
        let traffic: [RecordedExchange] = [
            .make("/v2/search", query: "q=pen", body: #"{"hits":1}"#),
            .make("/v2/search", query: "q=pens", body: #"{"hits":1}"#),
            .make("/v2/search", query: "q=penny", body: #"{"hits":1}"#),
            .make("/v2/search", query: "q=ink", status: 404, body: #"{"hits":0}"#),
            .make("/v2/search", query: "q=cup", status: 404, body: #"{"hits":0}"#),
        ]
        let folders = try RecordingFolders()
        _ = try folders.writer().write(traffic)
        let search = try #require(folders.validate()?.endpoints.first)
        // The answer most requests got is the default, without a rule.
        #expect(search.scenarios.first?.status == 200 && search.scenarios.first?.when == [])
        let missing = try #require(search.scenarios.first { $0.status == 404 })
        #expect(missing.when == [RequestRule(conditions: [
            RuleCondition(source: .query("q"), matcher: .oneOf([.string("ink"), .string("cup")])),
        ])])
        try Replay.expectRecordedAnswers(Replay.shuffled(traffic), folders: folders, sessions: true)
    }

    @Test func answersThatDifferByJSONBodyOrHeader_AreRulesOnThem_AndNoSecretIsARule() throws {
        let json = RecordedExchange.Field(name: "Content-Type", value: "application/json")
        let traffic: [RecordedExchange] = [
            .make("/v2/quote", method: "POST", requestHeaders: [json], requestBody: #"{"plan":"basic","password":"a"}"#,
                  body: #"{"price":5}"#),
            .make("/v2/quote", method: "POST", requestHeaders: [json], requestBody: #"{"plan":"pro","password":"b"}"#,
                  body: #"{"price":20}"#),
            .make("/v2/greeting", requestHeaders: [.init(name: "Accept-Language", value: "fr")], body: #"{"hi":"salut"}"#),
            .make("/v2/greeting", requestHeaders: [.init(name: "Accept-Language", value: "en"),
                                                  .init(name: "X-Request-Id", value: "r-2")], body: #"{"hi":"hello"}"#),
        ]
        let folders = try RecordingFolders()
        _ = try folders.writer().write(traffic)
        let contracts = try #require(folders.validate())
        let quote = try #require(contracts.endpoints.first { $0.method == "POST" })
        #expect(quote.scenarios.last?.when.first?.conditions.map(\.source) == [.body(pointer: "/plan")])
        let greeting = try #require(contracts.endpoints.first { $0.method == "GET" })
        #expect(greeting.scenarios.last?.when.first?.conditions.map(\.source) == [.header("accept-language")])
        try Replay.expectRecordedAnswers(Replay.shuffled(traffic), folders: folders, sessions: true)
    }

    @Test func refusalsExactlyWithoutCredentials_AreAuth_NotASequenceStep() throws {
        let bearer = RecordedExchange.Field(name: "Authorization", value: "Bearer tok-SECRET-9")
        let json = RecordedExchange.Field(name: "Content-Type", value: "application/json")
        let order = #"{"isbn":"080442957X"}"#
        let traffic: [RecordedExchange] = [
            .make("/v2/orders", method: "POST", requestHeaders: [bearer, json], requestBody: order, status: 201,
                  body: #"{"ordered":true}"#),
            .make("/v2/orders", method: "POST", requestHeaders: [json], requestBody: order, status: 401,
                  body: #"{"error":"log in first"}"#),
            .make("/v2/orders", method: "POST", requestHeaders: [bearer, json], requestBody: order, status: 201,
                  body: #"{"ordered":true}"#),
        ]
        let folders = try RecordingFolders()
        let summary = try folders.writer().write(traffic)
        let orders = try #require(folders.validate()?.endpoints.first)
        #expect(orders.request.bearerAuth)
        #expect(orders.scenarios.map(\.name) == ["success", "requestErr"])
        #expect(orders.scenarios.last?.when == [RequestRule(conditions: [
            RuleCondition(source: .header("authorization"), matcher: .present(false)),
        ])])
        #expect(summary.endpointReports.first?.auth == "bearer")
        #expect(!folders.files().values.contains { String(decoding: $0, as: UTF8.self).contains("tok-SECRET-9") })
        // The unauthenticated POST gets the backend's own refusal, in any order and session.
        try Replay.expectRecordedAnswers(Replay.shuffled(traffic), folders: folders, sessions: true)
    }

    @Test func theSameRequestAnsweredOtherwise_IsASequence_PickedByItsRule() throws {
        let traffic: [RecordedExchange] = [
            .make("/v2/jobs", query: "id=7", status: 202, body: #"{"state":"running"}"#),
            .make("/v2/jobs", query: "id=7", body: #"{"state":"done"}"#),
            .make("/v2/jobs", query: "id=8", body: #"{"state":"queued"}"#),
            .make("/v2/jobs", query: "id=9", body: #"{"state":"queued"}"#),
        ]
        let folders = try RecordingFolders()
        let summary = try folders.writer().write(traffic)
        let jobs = try #require(folders.validate()?.endpoints.first)
        let sequence = try #require(jobs.scenarios.first { $0.sequence != nil })
        #expect(sequence.when.first?.conditions == [RuleCondition(source: .query("id"), matcher: .equals(.string("7")))])
        #expect(summary.endpointReports.first?.sequences.first?.contains("202, 200") == true)
        // The same session sees the job run, then finish; the others are answered at once.
        try Replay.expectRecordedAnswers(traffic, folders: folders)
        try Replay.expectRecordedAnswers([traffic[3], traffic[2], traffic[0]], folders: folders, sessions: true)
    }

    @Test func idsOfEveryShape_AreTyped_FromEverySample() throws {
        let traffic: [RecordedExchange] = [
            .make("/v2/books/080442957X", body: #"{"t":"a"}"#), .make("/v2/books/9780804429573", body: #"{"t":"b"}"#),
            .make("/v2/codes/007", body: #"{"c":7}"#), .make("/v2/codes/042", body: #"{"c":42}"#),
            .make("/v2/users/7", body: #"{"u":7}"#), .make("/v2/users/12", body: #"{"u":12}"#),
            .make("/v2/posts/hello-world", body: #"{"p":1}"#), .make("/v2/posts/second-post", body: #"{"p":2}"#),
        ]
        let folders = try RecordingFolders()
        _ = try folders.writer().write(traffic)
        let contracts = try #require(folders.validate())
        let paths = Dictionary(contracts.endpoints.map { ($0.path.description, $0.request.pathParams) },
                               uniquingKeysWith: { first, _ in first })
        #expect(paths["/v2/books/{id}"] == ["id": FieldType(kind: .string)])
        #expect(paths["/v2/codes/{id}"] == ["id": FieldType(kind: .string)])
        #expect(paths["/v2/users/{id}"] == ["id": FieldType(kind: .integer)])
        #expect(paths["/v2/posts/hello-world"] != nil && paths["/v2/posts/second-post"] != nil, "slugs stay literal")
        try Replay.expectRecordedAnswers(Replay.shuffled(traffic), folders: folders, sessions: true)
    }

    @Test func aHeaderThatDiffersOnEveryRequest_IsNoFact_SoTheSameRequestAnsweredOtherwiseIsASequence() throws {
        func status(_ time: String, _ code: Int, _ body: String) -> RecordedExchange {
            .make("/v2/build", requestHeaders: [.init(name: "X-Client-Time", value: time),
                                                .init(name: "X-Session-Id", value: "s-\(time)")], status: code, body: body)
        }
        let traffic = [status("1", 202, #"{"state":"queued"}"#), status("2", 202, #"{"state":"running"}"#),
                       status("3", 200, #"{"state":"done"}"#)]
        let folders = try RecordingFolders()
        _ = try folders.writer().write(traffic)
        let build = try #require(folders.validate()?.endpoints.first)
        #expect(build.scenarios.first?.sequence?.steps.count == 3, "\(build.scenarios.map(\.name))")
        #expect(build.scenarios.allSatisfy { $0.when.isEmpty })
        let written = folders.text("Contracts/build.json")
        #expect(!written.contains("s-1"), "a session header never reaches a contract")
        try Replay.expectRecordedAnswers(traffic, folders: folders)
    }

    @Test(arguments: [
        ("42", true), ("0042", true), ("080442957X", true), ("9780804429573", true), ("SKU-1042", true),
        ("3f2504e0-4f89-11d3-9a0c-0305e82c3301", true), ("books", false), ("harry-potter", false), ("v2", false),
        ("a1", false), ("v1.2", false), ("logo.png", false), ("two words1", false), ("", false),
    ])
    func identifier_IsDigitsOrAUUIDOrFourLettersAndDigits(segment: String, isIdentifier: Bool) {
        #expect(IdentifierSegment.isIdentifier(segment) == isIdentifier)
    }

    @Test func identifierKind_IsIntegerOnlyWhenEverySampleIsAPlainInteger() {
        #expect(IdentifierSegment.kind(of: ["1", "42", "900"]) == .integer)
        #expect(IdentifierSegment.kind(of: ["1", "007"]) == .string)
        #expect(IdentifierSegment.kind(of: ["080442957X", "9780804429573"]) == .string)
        #expect(IdentifierSegment.kind(of: ["1234567890123456789"]) == .string, "more digits than an integer holds")
    }

    @Test func latency_IsTheTimeForOneSample_AndALogNormalFitForSeveral() {
        #expect(LatencyFit.latency([1_500.4]) == .fixed(1_500))
        #expect(LatencyFit.latency([0.3]) == nil && LatencyFit.latency([4, 3]) == nil, "a loopback hop, not the backend")
        #expect(LatencyFit.latency([]) == nil)
        // ln 50, ln 100, ln 200: mean ln 100, standard deviation ln 2 × √(2/3) = 0.566
        #expect(LatencyFit.latency([50, 100, 200]) == .lognormal(median: 100, sigma: 0.57))
        #expect(LatencyFit.latency([80, 80]) == .fixed(80))
    }

    @Test func scenarios_KeepTheObservedLatency_UnlessAskedNotTo() throws {
        var slow = RecordedExchange.make("/v2/slow", body: #"{"ok":true}"#)
        slow.headMs = 1_480
        let folders = try RecordingFolders()
        _ = try folders.writer().write([slow])
        #expect(folders.validate()?.endpoints.first?.scenarios.first?.latency == .fixed(1_480))
        let without = try RecordingFolders()
        _ = try RecordingWriter(contractsDirectory: without.contracts, fixturesDirectory: without.fixtures,
                                redaction: .init(), merge: false, keepsLatency: false).write([slow])
        #expect(without.validate()?.endpoints.first?.scenarios.first?.latency == nil)
    }

    @Test func theBackendsOwnFields_AreNotRecorded_AndOneBodyIsOneFixture() throws {
        let own: [RecordedExchange.Field] = [.init(name: "Server", value: "nginx/1.25"), .init(name: "X-Powered-By", value: "PHP"),
                                            .init(name: "Cache-Control", value: "no-store")]
        let traffic: [RecordedExchange] = [
            .make("/v2/a/missing", status: 404, responseHeaders: own, body: #"{"error":"not found"}"#),
            .make("/v2/b/missing", status: 404, responseHeaders: own, body: #"{"error":"not found"}"#),
        ]
        let folders = try RecordingFolders()
        _ = try folders.writer().write(traffic)
        let contracts = try #require(folders.validate())
        #expect(contracts.endpoints.allSatisfy { $0.scenarios.first?.headers == ["Cache-Control": "no-store"] })
        #expect(folders.files().keys.filter { $0.hasPrefix("Fixtures/") }.count == 1)
    }

    @Test func flushReport_NamesRulesSequencesIDsAndAuth_AndCountsSecrets_NeverTheirValues() throws {
        let bearer = RecordedExchange.Field(name: "Authorization", value: "Bearer tok-SECRET-9")
        let traffic = Self.books + [
            .make("/v2/users/7", requestHeaders: [bearer], body: #"{"u":7,"token":"tok-SECRET-8"}"#),
            .make("/v2/users/12", requestHeaders: [bearer], body: #"{"u":12}"#),
            .make("/v2/users/12", status: 401, body: #"{"error":"who?"}"#),
        ]
        let folders = try RecordingFolders()
        let recording = Recording(writer: folders.writer(), maxBodyBytes: 1 << 20)
        for exchange in traffic { recording.add(exchange) }
        let outcome = recording.flush()
        let text = recording.describe(outcome)
        #expect(text.contains("getV2Books GET /v2/books: 2 when rules"), "\(text)")
        #expect(text.contains("getV2UsersById GET /v2/users/{id}: ids {id}; 1 when rule; auth bearer"), "\(text)")
        #expect(text.contains("secrets: 2 credential header fields left out, 1 value redacted in fixtures"), "\(text)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(recording.describeJSON(outcome).utf8))
            as? [String: Any])
        #expect((json["endpoints"] as? [[String: Any]])?.count == 2)
        #expect(json["redactedValues"] as? Int == 1)
        #expect(!text.contains("SECRET") && !recording.describeJSON(outcome).contains("SECRET"))
    }
}
