@testable import HTTPCore
import Testing

/// The bounded queue between a stream's producers and its connection, without a socket.
struct ReplyStreamTests {
    @Test func sends_AreTakenInOrder_ThenTheFinish() {
        let stream = ReplyStream(limit: 100)
        #expect(stream.send(Array("one".utf8)) && stream.send(Array("two".utf8)))
        guard case .chunks(let chunks) = stream.take(waker: nil) else { Issue.record("no chunks"); return }
        #expect(chunks == [Array("one".utf8), Array("two".utf8)])
        guard case .nothing = stream.take(waker: nil) else { Issue.record("expected nothing"); return }
        stream.finish()
        #expect(!stream.isOpen && !stream.send([1]))
        guard case .finished = stream.take(waker: nil) else { Issue.record("expected the finish"); return }
    }

    @Test func producerPastTheLimit_DropsTheConsumer_AndLaterSendsAreRefused() {
        let stream = ReplyStream(limit: 10)
        #expect(stream.send(Array(repeating: 1, count: 6)))
        #expect(!stream.send(Array(repeating: 2, count: 5)), "11 bytes waiting is over the limit")
        #expect(!stream.isOpen && !stream.send([3]))
        guard case .dropped = stream.take(waker: nil) else { Issue.record("expected the drop"); return }
    }

    @Test func takingFreesRoom() {
        let stream = ReplyStream(limit: 10)
        #expect(stream.send(Array(repeating: 1, count: 8)))
        _ = stream.take(waker: nil)
        #expect(stream.send(Array(repeating: 2, count: 8)))
    }

    @Test func cancel_RefusesSends() {
        let stream = ReplyStream(limit: 10)
        stream.cancel()
        #expect(!stream.send([1]) && !stream.isOpen)
    }
}
