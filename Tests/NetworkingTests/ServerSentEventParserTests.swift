import Networking
import Testing

/// The event-stream reader against the HTML Living Standard's own examples (§9.2.5, §9.2.6) and its line-ending rules.
@Suite struct ServerSentEventParserTests {
    private func events(_ text: String, byteByByte: Bool = false) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        if byteByByte { return text.utf8.flatMap { parser.feed(CollectionOfOne($0)) } }
        return parser.feed(Array(text.utf8))
    }

    @Test func dataLines_AreJoinedByLineFeeds() {
        #expect(events("data: YHOO\ndata: +2\ndata: 10\n\n") == [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test func commentsIdsAndOneLeadingSpace_AsTheStandardsExample() {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        #expect(events(stream) == [ServerSentEvent(data: "first event", id: "1"), ServerSentEvent(data: "second event", id: ""),
                                   ServerSentEvent(data: " third event", id: "")])
    }

    @Test func emptyData_IsAnEvent_ButAnUnfinishedOneIsNot() {
        #expect(events("data\n\ndata\ndata\n\ndata:") == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
        #expect(events("data:test\n\ndata: test\n\n") == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
    }

    @Test(arguments: ["\r\n", "\r", "\n"])
    func everyLineEnding_EndsALine(ending: String) {
        let stream = ["event: token", "data: a", "data: b", "retry: 1500", "", "data: c", ""].joined(separator: ending) + ending
        let expected = [ServerSentEvent(event: "token", data: "a\nb", retry: 1500), ServerSentEvent(data: "c")]
        #expect(events(stream) == expected)
        #expect(events(stream, byteByByte: true) == expected, "pieces split anywhere, a CRLF too")
    }

    @Test func badRetryAndAnIdWithNul_AreIgnored_AndTheIdCarriesOver() {
        #expect(events("id: 7\ndata: a\n\nretry: 12x\nid: bad\u{0}\ndata: b\n\n")
            == [ServerSentEvent(data: "a", id: "7"), ServerSentEvent(data: "b", id: "7")])
    }

    @Test func aByteOrderMark_AtTheStart_IsDropped() {
        #expect(events("\u{FEFF}data: x\n\n") == [ServerSentEvent(data: "x")])
    }

    @Test func theAsyncSequence_ReadsEventsAsTheBytesArrive() async throws {
        let (stream, continuation) = AsyncStream<UInt8>.makeStream()
        for byte in "event: token\ndata: He\n\nevent: token\ndata: llo\n\ndata: unfinished".utf8 { continuation.yield(byte) }
        continuation.finish()
        var received: [String] = []
        for try await event in ServerSentEvents(stream) where event.event == "token" { received.append(event.data) }
        #expect(received == ["He", "llo"])
    }
}
