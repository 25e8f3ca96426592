@testable import Recorder
import Testing

struct RecordingTests {
    private func recording(maxBodyBytes: Int = 10) -> Recording {
        Recording(writer: RecordingWriter(contractsDirectory: "C", fixturesDirectory: "F", redaction: .init(), merge: false),
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
        guard case .written(_, let count) = recording.flush() else {
            Issue.record("the writer failed")
            return
        }
        #expect(count == 2)
        // Kept: the next flush writes these again with whatever came since (the writer merges or refuses).
        #expect(recording.count == 2)
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
