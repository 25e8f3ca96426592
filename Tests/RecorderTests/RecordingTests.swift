import Foundation
@testable import Recorder
import Testing

@Suite(.timeLimit(.minutes(2)))
struct RecordingTests {
    private let folders: RecordingFolders

    init() throws { folders = try RecordingFolders() }

    private func recording(maxBodyBytes: Int = 10, contracts: String? = nil) -> Recording {
        Recording(writer: RecordingWriter(contractsDirectory: contracts ?? folders.contracts, fixturesDirectory: folders.fixtures,
                                          redaction: .init(), merge: false),
                  maxBodyBytes: maxBodyBytes)
    }

    private func exchange(responseBody: String = "{}", requestBody: String = "") -> RecordedExchange {
        RecordedExchange(method: "POST", path: "/v1/items", query: nil, requestHeaders: [], requestBody: Array(requestBody.utf8),
                         status: 200, responseHeaders: [], responseBody: Array(responseBody.utf8))
    }

    @Test func exchange_WithABodyOverTheLimit_IsNotRecorded_AndSaysWhy() {
        let recording = recording()
        #expect(recording.add(exchange()) == nil)
        let response = recording.add(exchange(responseBody: String(repeating: "x", count: 11)))
        #expect(response?.contains("response body of 11 bytes exceeds --max-record-bytes 10") == true)
        let request = recording.add(exchange(requestBody: String(repeating: "x", count: 11)))
        #expect(request?.contains("request body of 11 bytes") == true)
        #expect(recording.count == 1)
    }

    @Test func flush_HandsTheWriterEverythingSoFar_AndKeepsIt() {
        let recording = recording()
        recording.add(exchange())
        recording.add(exchange())
        guard case .written(let summary, let count) = recording.flush() else {
            Issue.record("the writer failed")
            return
        }
        #expect(count == 2 && summary.contractFiles == [folders.contracts + "/items.json"])
        // Kept: the next flush writes these again with whatever came since.
        recording.add(exchange(responseBody: "[]"))
        guard case .written(_, let all) = recording.flush() else {
            Issue.record("the second flush failed")
            return
        }
        #expect(all == 3)
    }

    @Test func flush_NamesWhatItCouldNotWrite_AndDoesNotCountIt() {
        let recording = recording()
        recording.add(exchange())
        recording.add(RecordedExchange(method: "BREW", path: "/pot", query: nil, requestHeaders: [], requestBody: [],
                                       status: 418, responseHeaders: [], responseBody: []))
        let outcome = recording.flush()
        let line = recording.describe(outcome)
        #expect(line.hasPrefix("recording: wrote 1 exchange ("), "\(line)")
        #expect(line.contains("1 not written, which a contract cannot describe: BREW /pot"), "\(line)")
    }

    @Test func failedFlush_LosesNothing_AndTheNextOneWritesIt() throws {
        // A contracts "folder" that is a file: nothing can be written there until it is moved away.
        let blocked = folders.root + "/Blocked"
        #expect(FileManager.default.createFile(atPath: blocked, contents: Data("not a folder".utf8)))
        let recording = recording(contracts: blocked + "/Contracts")
        recording.add(exchange())
        guard case .failed(let reason, let count) = recording.flush() else {
            Issue.record("a write into a file succeeded")
            return
        }
        #expect(count == 1 && reason.contains("not a folder"), "\(reason)")
        #expect(recording.describe(.failed(reason: reason, exchanges: count)).contains("kept, flush again once fixed"))
        try FileManager.default.removeItem(atPath: blocked)
        guard case .written(_, let written) = recording.flush() else {
            Issue.record("the flush after the fix failed")
            return
        }
        #expect(written == 1)
    }

    @Test func relayedResponse_LosesHopByHopAndFramingFields_AndGainsVia() {
        let response = UpstreamResponse(status: 200, reason: "Fine", fields: [
            .init(name: "Connection", value: "close, X-Private"), .init(name: "X-Private", value: "1"),
            .init(name: "Keep-Alive", value: "timeout=5"), .init(name: "Content-Length", value: "2"),
            .init(name: "Date", value: "Mon"), .init(name: "Via", value: "1.0 a"), .init(name: "ETag", value: "\"1\""),
        ], body: Array("ok".utf8))
        let relayed = UpstreamProxy.relayed(response)
        let head = String(decoding: relayed.head, as: UTF8.self)
        #expect(head == "HTTP/1.1 200 Fine\r\nETag: \"1\"\r\nVia: 1.0 a, 1.1 mock-server\r\n")
        #expect(relayed.body == Array("ok".utf8))
    }
}
