import ContractModel
import Recorder
import Testing

/// End to end: a recording written into empty folders loads as `mock-server validate` loads it, and the
/// real mock server answers every recorded request as the backend did.
@Suite(.timeLimit(.minutes(2))) struct RecordingReplayTests {
    /// A small API's traffic: a list, items by id (one of them missing), a create, a delete, a search by
    /// query, a text endpoint, and a health check that failed before it recovered.
    static let traffic: [RecordedExchange] = [
        .make("/v1/items", query: "page=1&lang=en", body: #"{"items":[{"id":1},{"id":2}],"page":1}"#),
        .make("/v1/items/1", responseHeaders: [.init(name: "ETag", value: "\"a1\"")], body: #"{"id":1,"name":"Pen"}"#),
        .make("/v1/items/2", responseHeaders: [.init(name: "ETag", value: "\"b2\"")], body: #"{"id":2,"name":"Ink","price":2.5}"#),
        .make("/v1/items/99", status: 404, body: #"{"responseMsg":"no item 99","status":404}"#),
        .make("/v1/items", method: "POST", requestHeaders: [.init(name: "Content-Type", value: "application/json")],
              requestBody: #"{"name":"Cup","price":4,"tags":["a"]}"#, status: 201, body: #"{"id":3,"name":"Cup"}"#),
        .make("/v1/items/2", method: "DELETE", status: 204, contentType: nil),
        .make("/v1/items/1", method: "DELETE", status: 204, contentType: nil),
        .make("/health", status: 503, contentType: "text/plain", body: "down for maintenance"),
        .make("/health", contentType: "text/plain; charset=utf-8", body: "ok"),
    ]

    @Test func recording_ValidatesAndReplaysEveryRequest_WhenWrittenIntoEmptyFolders() throws {
        // GIVEN
        let folders = try RecordingFolders()
        // WHEN
        let summary = try folders.writer().write(Self.traffic)
        // THEN
        #expect(summary.skipped.isEmpty)
        #expect(folders.validate() != nil)
        try Replay.expectRecordedAnswers(Self.traffic, folders: folders)
    }

    @Test func templatesThatNameTheSameFolder_KeepTheirOwnFixtures() throws {
        // `/users/{id}/orders` and `/users/orders/{id}` both have the literals users and orders; and
        // `a.b`/`a_b` differ only in a character the file names replace.
        let traffic: [RecordedExchange] = [
            .make("/users/7/orders", body: #"{"of":"user 7"}"#), .make("/users/8/orders", body: #"{"of":"user 8"}"#),
            .make("/users/orders/7", body: #"{"order":7}"#), .make("/users/orders/8", body: #"{"order":8}"#),
            .make("/a.b/1", body: #"{"ab":"dot"}"#), .make("/a.b/2", body: #"{"ab":"dot 2"}"#),
            .make("/a_b/1", body: #"{"ab":"underscore"}"#), .make("/a_b/2", body: #"{"ab":"underscore 2"}"#),
        ]
        let folders = try RecordingFolders()
        _ = try folders.writer().write(traffic)
        #expect(folders.validate() != nil)
        try Replay.expectRecordedAnswers(traffic, folders: folders)
    }

    @Test func variedIDs_BecomeATypedParameter_WithAFixturePerID() throws {
        let folders = try RecordingFolders()
        _ = try folders.writer().write(Self.traffic)
        let contracts = try #require(folders.validate())
        let endpoint = try #require(contracts.endpoints.first { $0.method == "GET" && $0.path.description == "/v1/items/{id}" })
        #expect(endpoint.request.pathParams["id"] == FieldType(kind: .integer))
        #expect(endpoint.scenarios.first?.body == "v1/items/{id}.json")
        #expect(endpoint.scenarios.map(\.name) == ["success", "requestErr"])
        #expect(folders.text("Fixtures/v1/items/2.json").contains("\"Ink\""))
        // 99 answered otherwise: a scenario of the same endpoint, picked by the id, and no literal endpoint.
        #expect(!contracts.endpoints.contains { $0.path.description == "/v1/items/99" })
        let missing = try #require(endpoint.scenarios.last)
        #expect(missing.status == 404 && missing.expect == .requestErr)
        #expect(missing.when == [RequestRule(conditions: [RuleCondition(source: .pathParameter("id"), matcher: .equals(.string("99")))])])
    }

    @Test func queryAndBodyFields_AreDeclaredWithTheTypesSeen() throws {
        let folders = try RecordingFolders()
        _ = try folders.writer().write(Self.traffic)
        let contracts = try #require(folders.validate())
        let list = try #require(contracts.endpoints.first { $0.method == "GET" && $0.path.description == "/v1/items" })
        #expect(list.request.query == ["page": FieldType(kind: .integer), "lang": FieldType(kind: .string)])
        let create = try #require(contracts.endpoints.first { $0.method == "POST" })
        #expect(create.request.body?.kind == .json)
        #expect(create.request.body?.fields == ["name": FieldType(kind: .string), "price": FieldType(kind: .integer),
                                                "tags": FieldType(kind: .json)])
    }

    @Test func outcomesThatChangedOverTime_ReplayInOrder_AsADefaultSequence() throws {
        let folders = try RecordingFolders()
        _ = try folders.writer().write(Self.traffic)
        let contracts = try #require(folders.validate())
        let health = try #require(contracts.endpoints.first { $0.path.description == "/health" })
        #expect(health.scenarios.map(\.name) == ["recorded", "success", "serverErr"])
        #expect(health.scenarios.first?.sequence?.steps == ["serverErr", "success"])
        #expect(health.scenarios.first { $0.name == "success" }?.body == "health/get-success.txt")
    }

    @Test func endToEndHeaders_AreKept_AndOnesTheServerSetsAreDropped() throws {
        let folders = try RecordingFolders()
        let exchange = RecordedExchange.make("/v1/profile", responseHeaders: [
            .init(name: "Cache-Control", value: "max-age=60"), .init(name: "Connection", value: "close, X-Hop"),
            .init(name: "X-Hop", value: "1"), .init(name: "Transfer-Encoding", value: "chunked"),
            .init(name: "Content-Length", value: "2"), .init(name: "Date", value: "Mon, 01 Jan 2024 00:00:00 GMT"),
            .init(name: "Via", value: "1.1 proxy"), .init(name: "Keep-Alive", value: "timeout=5"),
            .init(name: "Link", value: "<a>"), .init(name: "Link", value: "<b>"),
        ], body: "{}")
        _ = try folders.writer().write([exchange])
        let contracts = try #require(folders.validate())
        #expect(contracts.endpoints.first?.scenarios.first?.headers == ["Cache-Control": "max-age=60", "Link": "<a>, <b>"])
    }

    @Test func sameTraffic_WrittenTwice_GivesByteIdenticalFiles() throws {
        let first = try RecordingFolders(), second = try RecordingFolders()
        _ = try first.writer().write(Self.traffic)
        _ = try second.writer().write(Self.traffic)
        #expect(first.files() == second.files())
        #expect(first.files().keys.sorted() == [
            "Contracts/health.json", "Contracts/items.json", "Fixtures/health/get-serverErr.txt",
            "Fixtures/health/get-success.txt", "Fixtures/v1/items/1.json", "Fixtures/v1/items/2.json",
            "Fixtures/v1/items/get-id-requestErr.json",
            "Fixtures/v1/items/get-success.json", "Fixtures/v1/items/post-success.json",
        ])
    }
}

extension RecordingReplayTests {
    @Test func uuidIDs_BecomeAStringParameter_AndTheDomainSkipsVersionAndAPISegments() throws {
        let folders = try RecordingFolders()
        let traffic: [RecordedExchange] = [
            .make("/api/v2/orders/3f2504e0-4f89-11d3-9a0c-0305e82c3301", body: #"{"n":1}"#),
            .make("/api/v2/orders/9a2504e0-4f89-11d3-9a0c-0305e82c3302", body: #"{"n":2}"#),
        ]
        _ = try folders.writer().write(traffic)
        let contracts = try #require(folders.validate())
        #expect(contracts.contracts.map(\.domain) == ["orders"])
        #expect(contracts.endpoints.map(\.id) == ["getApiV2OrdersById"])
        #expect(contracts.endpoints.first?.request.pathParams == ["id": FieldType(kind: .string)])
        try Replay.expectRecordedAnswers(traffic, folders: folders)
    }
}
