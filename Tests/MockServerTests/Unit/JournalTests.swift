@testable import HTTPCore
@testable import MockServer
import Testing

/// The journal's bounded ring: which entries it keeps, in which order, with which sequence numbers.
struct JournalTests {
    private func journal(capacity: Int, appending count: Int) -> Journal {
        let journal = Journal(capacity: capacity)
        for number in 1...count { journal.append(.make(target: "/\(number)")) }
        return journal
    }

    @Test func entries_BeforeTheRingIsFull_AreAllKept_OldestFirst() {
        let journal = journal(capacity: 3, appending: 2)
        #expect(journal.entries().map(\.sequence) == [1, 2])
        #expect(journal.entries().map(\.target) == ["/1", "/2"])
    }

    @Test func entries_WhenExactlyFull_AreAllKept() {
        #expect(journal(capacity: 3, appending: 3).entries().map(\.sequence) == [1, 2, 3])
    }

    @Test func entries_AfterWrappingAround_AreTheNewest_OldestFirst() {
        // GIVEN room for three
        // WHEN seven requests are recorded (the ring wraps twice, ending part-way round)
        let journal = journal(capacity: 3, appending: 7)
        // THEN the last three are kept, oldest first
        #expect(journal.entries().map(\.sequence) == [5, 6, 7])
        #expect(journal.entries().map(\.target) == ["/5", "/6", "/7"])
    }

    @Test func entries_AfterWrappingAWholeNumberOfTimes_AreOldestFirst() {
        #expect(journal(capacity: 3, appending: 6).entries().map(\.sequence) == [4, 5, 6])
    }

    @Test func clear_ForgetsEntries_ButSequencesKeepIncreasing() {
        let journal = journal(capacity: 3, appending: 7)
        journal.clear()
        #expect(journal.entries().isEmpty)
        journal.append(.make(target: "/8"))
        #expect(journal.entries().map(\.sequence) == [8])
        for number in 9...11 { journal.append(.make(target: "/\(number)")) }
        #expect(journal.entries().map(\.sequence) == [9, 10, 11])
        #expect(journal.entries().map(\.target) == ["/9", "/10", "/11"])
    }

    @Test func capacityOne_KeepsOnlyTheLatest() {
        let journal = journal(capacity: 1, appending: 3)
        #expect(journal.capacity == 1)
        #expect(journal.entries().map(\.sequence) == [3])
        #expect(journal.entries().map(\.target) == ["/3"])
    }

    @Test(arguments: [0, -5])
    func capacityBelowOne_KeepsOne(capacity: Int) {
        let journal = journal(capacity: capacity, appending: 2)
        #expect(journal.capacity == 1)
        #expect(journal.entries().map(\.sequence) == [2])
    }

    /// A reader that asks for a long backlog gets what fits in half its queue, newest first, and is told
    /// how many it missed, rather than being dropped before its first event.
    @Test func replay_FitsHalfTheQueue_AndCountsTheRest() throws {
        let journal = Journal(capacity: 100)
        for index in 0..<100 { journal.append(.make(target: "/\(index)")) }
        let eventSize = EventStreamFormat.event(for: journal.entries()[0]).count
        let stream = ReplyStream(limit: eventSize * 20)
        journal.subscribe(stream, after: 0)
        #expect(stream.isOpen, "the replay did not overflow the queue")
        guard case .chunks(let chunks) = stream.take(waker: nil) else { Issue.record("nothing sent"); return }
        let text = chunks.map { String(decoding: $0, as: UTF8.self) }
        #expect(text.first == "retry: 1000\n\n")
        let replayed = text.filter { $0.contains("event: request") }
        #expect(replayed.count >= 9 && replayed.count <= 10)
        #expect(text[1] == "event: missed\ndata: {\"count\":\(100 - replayed.count)}\n\n")
        #expect(replayed.last?.hasPrefix("id: 100\n") == true)
    }
}
