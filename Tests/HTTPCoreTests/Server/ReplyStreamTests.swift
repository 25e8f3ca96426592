import Foundation
@testable import HTTPCore
import Testing
import TestSupport

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

    /// One part larger than the limit goes into an empty queue (a WebSocket message of the largest size allowed):
    /// only parts piling up drop the consumer.
    @Test func onePartOverTheLimit_IsTakenIntoAnEmptyQueue() {
        let stream = ReplyStream(limit: 10)
        #expect(stream.send(Array(repeating: 1, count: 50)))
        #expect(!stream.send([2]), "anything more while it waits is over the limit")
    }

    @Test func producerPastTheLimit_DropsTheConsumer_AndLaterSendsAreRefused() {
        let stream = ReplyStream(limit: 10)
        #expect(stream.send(Array(repeating: 1, count: 6)))
        #expect(!stream.send(Array(repeating: 2, count: 5)), "11 bytes waiting is over the limit")
        #expect(!stream.isOpen && !stream.send([3]))
        guard case .dropped = stream.take(waker: nil) else { Issue.record("expected the drop"); return }
    }

    /// A producer that sends faster than the connection takes waits for room instead of dropping it, and a
    /// consumer that leaves wakes it with a refusal.
    @Test func sendWaiting_WaitsForRoom_AndStopsWhenTheConsumerLeaves() throws {
        let stream = ReplyStream(limit: 100)
        let sent = Locked(0)
        let producer = Thread {
            for _ in 0..<10 where stream.sendWaiting([UInt8](repeating: 1, count: 60)) { sent.withValue { $0 += 1 } }
        }
        producer.start()
        // One part fits; the second would pass the limit, so the producer waits.
        try pollUntil { sent.withValue { $0 } == 1 }
        Thread.sleep(forTimeInterval: 0.05)
        #expect(sent.withValue { $0 } == 1)
        guard case .chunks(let first) = stream.take(waker: nil) else { Issue.record("no chunks"); return }
        #expect(first.count == 1)
        try pollUntil { sent.withValue { $0 } == 2 }
        // Nothing is dropped while it waits, and the consumer leaving ends the wait.
        #expect(stream.isOpen)
        stream.cancel()
        try pollUntil { !producer.isExecuting }
        #expect(sent.withValue { $0 } == 2)
        #expect(!stream.sendWaiting([1]))
    }

    @Test func takingFreesRoom() {
        let stream = ReplyStream(limit: 10)
        #expect(stream.send(Array(repeating: 1, count: 8)))
        _ = stream.take(waker: nil)
        #expect(stream.send(Array(repeating: 2, count: 8)))
    }

    /// A waker holds its event loop; a stream the journal still lists after it ended must not keep the
    /// loop (and through it the journal) alive.
    @Test func endedStream_ForgetsItsWaker() throws {
        let finished = ReplyStream(limit: 10)
        let loop = try EventLoopStub.make()
        _ = finished.take(waker: .init(loop: loop, fd: 3))
        #expect(finished.holdsWaker)
        finished.finish()
        _ = finished.take(waker: .init(loop: loop, fd: 3))
        #expect(!finished.holdsWaker)
        let dropped = ReplyStream(limit: 1)
        _ = dropped.take(waker: .init(loop: loop, fd: 3))
        _ = dropped.send([1])
        _ = dropped.send([1, 2])
        _ = dropped.take(waker: .init(loop: loop, fd: 3))
        #expect(!dropped.holdsWaker)
    }

    /// A source is asked only when the queue is empty, and a notice that comes while it is being asked
    /// is not lost: the connection asks again rather than waiting for a wake-up that already happened.
    @Test func pulledStream_AsksItsSource_AfterQueuedChunks_AndWaitsWhenItHasNothing() throws {
        let source = ScriptedSource(["one", "", "two"])
        let stream = ReplyStream(source: source, limit: 100, interval: 1_000)
        #expect(stream.send(Array("queued".utf8)))
        guard case .chunks(let queued) = stream.take(waker: nil) else { Issue.record("no chunks"); return }
        #expect(queued == [Array("queued".utf8)])
        guard case .chunks(let pulled) = stream.take(waker: nil) else { Issue.record("no chunks"); return }
        #expect(pulled == [Array("one".utf8)] && source.asked == [100])
        let loop = try EventLoopStub.make()
        guard case .nothing = stream.take(waker: .init(loop: loop, fd: 3)) else { Issue.record("expected nothing"); return }
        #expect(stream.holdsWaker)
        #expect(stream.notify() && !stream.holdsWaker)
        guard case .chunks(let next) = stream.take(waker: nil) else { Issue.record("no chunks"); return }
        #expect(next == [Array("two".utf8)])
        stream.finish()
        #expect(!stream.notify())
        guard case .finished = stream.take(waker: nil) else { Issue.record("expected the finish"); return }
    }

    /// What the source has when the stream ends (the server stops) is still sent, before the end.
    @Test func finishedStream_AsksItsSourceOnceMore() {
        let stream = ReplyStream(source: ScriptedSource(["last"]), limit: 100, interval: 1_000)
        stream.finish()
        guard case .chunks(let chunks) = stream.take(waker: nil) else { Issue.record("no last chunk"); return }
        #expect(chunks == [Array("last".utf8)])
        guard case .finished = stream.take(waker: nil) else { Issue.record("expected the finish"); return }
    }

    @Test func noticeWhileTheSourceIsAsked_MakesTheStreamAskAgain() {
        let source = ScriptedSource(["", "late"])
        let stream = ReplyStream(source: source, limit: 100, interval: 1_000)
        source.whileAsked = { stream.notify() }
        guard case .chunks(let chunks) = stream.take(waker: nil) else { Issue.record("the notice was lost"); return }
        #expect(chunks == [Array("late".utf8)])
    }

    @Test func cancel_RefusesSends() {
        let stream = ReplyStream(limit: 10)
        stream.cancel()
        #expect(!stream.send([1]) && !stream.isOpen)
    }
}

/// A source that answers from a script, one answer per call.
final class ScriptedSource: ReplyStreamSource, @unchecked Sendable {
    // @unchecked: used from one test's thread only.
    private var answers: [String]
    private(set) var asked: [Int] = []
    var whileAsked: (() -> Void)?

    init(_ answers: [String]) { self.answers = answers }

    func next(maxBytes: Int) -> [UInt8] {
        asked.append(maxBytes)
        let hook = whileAsked
        whileAsked = nil
        hook?()
        return answers.isEmpty ? [] : Array(answers.removeFirst().utf8)
    }
}
