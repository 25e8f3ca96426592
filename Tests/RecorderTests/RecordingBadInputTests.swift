import ContractModel
import Foundation
import Recorder
import Testing

/// Input a contract cannot say as it is: left out with a reason, made to fit, or refused, never
/// written half or wrong.
@Suite(.timeLimit(.minutes(2))) struct RecordingBadInputTests {
    @Test func exchangesAContractCannotDescribe_AreSkippedWithAReason_AndTheRestWritten() throws {
        let folders = try RecordingFolders()
        let summary = try folders.writer().write([
            .make("/v1/files", method: "PROPFIND"), .make("/v1/files", method: "get"), .make("", method: "GET"), .make("http://x/y", method: "GET"),
            .make("/v1/upgrade", status: 101, contentType: nil), .make("/v1/a%2Fb"),
            .make("/v1/moved", status: 301, contentType: nil, responseHeaders: [.init(name: "Location", value: "/v1/files")]),
            .make("/v1/files", body: "[]"),
        ])
        #expect(summary.skipped.count == 6, "\(summary.skipped)")
        #expect(summary.skipped.first?.contains("PROPFIND /v1/files") == true)
        #expect(summary.endpoints == 2)
        let contracts = try #require(folders.validate())
        // A redirect is kept: the client's mapping makes it a networkFail, and so does the contract.
        let moved = try #require(contracts.endpoints.first { $0.path.description == "/v1/moved" })
        #expect(moved.scenarios.first?.expect == .networkFail)
        #expect(moved.scenarios.first?.headers == ["Location": "/v1/files"])
    }

    @Test func headersThatWereNotUTF8_OrHoldControlCharacters_AreDropped() throws {
        let folders = try RecordingFolders()
        _ = try folders.writer().write([.make("/v1/x", responseHeaders: [
            .init(name: "X-Name", value: "caf\u{FFFD}"), .init(name: "X-Bad", value: "a\r\nInjected: 1"),
            .init(name: "Bad Name", value: "1"), .init(name: "WWW-Authenticate", value: "Basic realm=x"),
            .init(name: "X-Good", value: "fine"),
        ], body: "{}")])
        let contracts = try #require(folders.validate())
        #expect(contracts.endpoints.first?.scenarios.first?.headers == ["X-Good": "fine"])
    }

    @Test func pathsDifferingOnlyByQuery_AreOneEndpoint_ThatAnswersEachByItsQuery() throws {
        let folders = try RecordingFolders()
        let traffic: [RecordedExchange] = [
            .make("/v1/search", query: "q=pen", body: #"{"hits":["pen"]}"#),
            .make("/v1/search", query: "q=ink&limit=5", body: #"{"hits":["ink"]}"#),
            .make("/v1/search", query: "q=zzz", status: 400, body: #"{"responseMsg":"no"}"#),
        ]
        _ = try folders.writer().write(traffic)
        let contracts = try #require(folders.validate())
        #expect(contracts.endpoints.count == 1)
        #expect(contracts.endpoints.first?.request.query == ["q": FieldType(kind: .string),
                                                            "limit": FieldType(kind: .integer, isOptional: true)])
        try Replay.expectRecordedAnswers(traffic, folders: folders)
    }

    @Test func bodiesThatAreNotJSON_AreKeptAsTheyCame_NeverAsBrokenJSON() throws {
        let folders = try RecordingFolders()
        let traffic: [RecordedExchange] = [
            .make("/v1/broken", body: #"{"cut": "#),
            RecordedExchange(method: "GET", path: "/v1/latin1", query: nil, requestHeaders: [], requestBody: [], status: 200,
                             responseHeaders: [.init(name: "Content-Type", value: "application/json")],
                             responseBody: [0x22, 0xE9, 0x22]),
            .make("/v1/page", contentType: "text/html", body: "<p>hi</p>"),
            .make("/v1/blob", contentType: nil, body: "\u{1}\u{2}"),
        ]
        _ = try folders.writer().write(traffic)
        folders.validate()
        let names = folders.files().keys.filter { $0.hasPrefix("Fixtures/") }.sorted()
        #expect(names == ["Fixtures/v1/blob/get-success.bin", "Fixtures/v1/broken/get-success.bin",
                          "Fixtures/v1/latin1/get-success.bin", "Fixtures/v1/page/get-success.html"])
        try Replay.expectRecordedAnswers(traffic, folders: folders)
    }

    @Test func anUnwritableFolder_IsAClearError_AndNothingIsWritten() throws {
        // GIVEN a fixtures folder that cannot be created: its parent is a file.
        let folders = try RecordingFolders()
        try Data("x".utf8).write(to: URL(fileURLWithPath: folders.root + "/file"))
        let writer = RecordingWriter(contractsDirectory: folders.contracts, fixturesDirectory: folders.root + "/file/Fixtures",
                                     redaction: .init(), merge: false)
        // WHEN
        let error = #expect(throws: RecordingError.self) { try writer.write(RecordingReplayTests.traffic) }
        // THEN
        #expect(error?.description.contains(folders.root + "/file/Fixtures") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folders.root) == ["file"])
    }

    @Test func noExchanges_WriteNothing() throws {
        let folders = try RecordingFolders()
        let summary = try folders.writer().write([])
        #expect(summary == RecordingWriter.Summary())
        #expect(folders.files().isEmpty)
    }
}
