@testable import HTTPCore
@testable import MockServer
import Testing
import TestSupport

/// The journal's event feeds without a socket: what one reader's turn writes, and what a reader that
/// stopped reading is told once it reads again.
struct JournalFeedTests {
    /// Everything the stream has now, as the connection would take it turn after turn.
    static func drain(_ stream: ReplyStream) -> String {
        var text = ""
        while case .chunks(let chunks) = stream.take(waker: nil) {
            for chunk in chunks { text += String(decoding: chunk, as: UTF8.self) }
        }
        return text
    }

    private func events(_ text: String, named name: String) -> Int {
        text.components(separatedBy: "event: \(name)\n").count - 1
    }

    @Test func liveReader_GetsEachNewEntry_ThenWaits() {
        let journal = Journal(capacity: 10)
        journal.append(.make(target: "/before"))
        let stream = journal.subscribe(after: nil, limit: 1 << 20)
        #expect(Self.drain(stream) == "retry: 1000\n\n", "entries before the subscription are not sent")
        journal.append(.make(target: "/one"))
        let text = Self.drain(stream)
        #expect(text.hasPrefix("id: 2\nevent: request\ndata: {") && text.contains(#""target":"/one""#))
        #expect(Self.drain(stream).isEmpty)
    }

    @Test func readerThatFellBehindTheRing_IsToldHowManyItMissed_ThenGetsTheKeptOnes() {
        let journal = Journal(capacity: 10)
        let stream = journal.subscribe(after: nil, limit: 1 << 20)
        _ = Self.drain(stream)
        for index in 0..<50 { journal.append(.make(target: "/\(index)")) }
        let text = Self.drain(stream)
        #expect(text.hasPrefix("event: missed\ndata: {\"count\":40}\n\n"))
        #expect(events(text, named: "request") == 10)
        #expect(text.hasSuffix("\n\n"))
        #expect(text.contains("id: 50\n"))
    }

    /// Once caught up, a turn writes at most a thirty-second of the limit: a flood of requests costs a reader's
    /// connection ten writes a second, not one per request.
    @Test func liveTurn_IsBounded_AndTheRestCountedAsMissed() {
        let journal = Journal(capacity: 100)
        var sample = JournalEntry.make(target: "/xx")
        sample.sequence = 10
        let eventSize = EventStreamFormat.event(for: sample).count
        let stream = journal.subscribe(after: nil, limit: eventSize * 3 * Journal.liveShare)
        _ = Self.drain(stream)
        for index in 10..<60 { journal.append(.make(target: "/\(index)")) }
        let text = Self.drain(stream)
        #expect(text.hasPrefix("event: missed\ndata: {\"count\":47}\n\n"))
        #expect(events(text, named: "request") == 3)
        #expect(text.contains("id: 50\n"))
    }

    @Test func entrySentBeforeItsReplyWentOut_IsSentAgain_AsAnUpdate() {
        let journal = Journal(capacity: 10)
        let stream = journal.subscribe(after: nil, limit: 1 << 20)
        _ = Self.drain(stream)
        let sequence = journal.append(.make(target: "/slow"))
        #expect(!Self.drain(stream).contains("durationMs"))
        journal.complete(sequence, responseHead: Array("HTTP/1.1 200 OK\r\nX-A: b\r\n".utf8), responseLength: 2,
                         bytesSent: 80, durationNanoseconds: 800_000_000)
        let text = Self.drain(stream)
        #expect(text.hasPrefix("event: update\ndata: {") && !text.contains("id: "))
        #expect(text.contains(#""durationMs":800,"#) && text.contains(#""bytesSent":80"#))
        #expect(text.contains(#""responseHeaders":[["X-A","b"],["Content-Length","2"]]"#))
        #expect(Self.drain(stream).isEmpty, "sent again once only")
    }

    @Test func clear_IsAnEvent_AndWhatItForgotIsNotCountedAsMissed() {
        let journal = Journal(capacity: 10)
        let stream = journal.subscribe(after: nil, limit: 1 << 20)
        _ = Self.drain(stream)
        journal.append(.make(target: "/a"))
        journal.clear()
        journal.append(.make(target: "/b"))
        let text = Self.drain(stream)
        #expect(text.hasPrefix("event: clear\ndata: {}\n\nid: 2\nevent: request\n"))
        #expect(!text.contains("missed"))
    }

    /// A feed that waits is woken by the next entry: the connection's waker is called once.
    @Test func waitingFeed_IsNotified_ByTheNextEntry() throws {
        let journal = Journal(capacity: 10)
        let stream = journal.subscribe(after: nil, limit: 1 << 20)
        let loop = try EventLoopStub.make()
        _ = stream.take(waker: .init(loop: loop, fd: 3))
        guard case .nothing = stream.take(waker: .init(loop: loop, fd: 3)) else {
            Issue.record("expected nothing new"); return
        }
        #expect(stream.holdsWaker)
        journal.append(.make())
        #expect(!stream.holdsWaker, "the entry took the waker to wake the connection")
    }

    @Test func closedReader_IsForgotten() {
        let journal = Journal(capacity: 10)
        let stream = journal.subscribe(after: nil, limit: 1 << 20)
        #expect(journal.subscriberCount == 1)
        stream.cancel()
        #expect(journal.subscriberCount == 0)
    }
}
