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
}
