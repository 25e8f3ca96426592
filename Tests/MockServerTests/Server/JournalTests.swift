import Foundation
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

    @Test func entries_KeepTheirOwnHeads_WhileTheRequestsStorageIsWrittenOver() {
        // The journal copies each request's head into its own storage (the dropped entry's), so the request's can
        // take the next request's: neither must show through into the other.
        let journal = Journal(capacity: 2)
        var head = HTTPRequest.head(method: "GET", target: "/first/and/longest?x=1", version: .http11,
                                    fields: [("Host", "a"), ("X-Long", String(repeating: "v", count: 40))])
        var read: [JournalEntry] = []
        for number in 1...5 {
            journal.append(JournalEntry(requestHead: head, bodySize: 0, endpoint: nil, scenario: nil, status: 200,
                                        fault: nil, violations: []))
            // The caller writes the next request over the same storage, as the parser does: from the second on, one
            // of the same length, which goes into the storage in place, as the journal holds none of it.
            let next = HTTPRequest.head(method: "GET", target: "/\(number + 1)", version: .http11,
                                        fields: [("Host", "h\(number + 1)")])
            let before = head.withUnsafeBufferPointer { $0.baseAddress }
            next.withUnsafeBytes { head.overwrite(with: $0) }
            if number > 1 { #expect(head.withUnsafeBufferPointer { $0.baseAddress } == before, "after \(number)") }
            if number == 3 { read = journal.entries() }  // held by a reader while the ring goes on
        }
        #expect(journal.entries().map(\.target) == ["/4", "/5"])
        #expect(journal.entries().map(\.headers) == [[["Host", "h4"]], [["Host", "h5"]]])
        #expect(read.map(\.target) == ["/2", "/3"])
        #expect(read.map(\.headers) == [[["Host", "h2"]], [["Host", "h3"]]])
    }

    /// An entry reads its method, target and fields from the request head it keeps, as the parser reads them: each
    /// value without the spaces and tabs around it, an empty value empty, and a target made in code whole.
    @Test func entry_ReadsTheRequestFromItsHead_AsTheParserDoes() {
        let head = Array("PATCH /a?b=1 HTTP/1.1\r\nHost: a \t\r\nX-Empty:\r\nX-Inner:\t b \tc  \r\nX-Colon: d:e".utf8)
        let entry = JournalEntry(requestHead: head, bodySize: 0, endpoint: nil, scenario: nil, status: 200, fault: nil,
                                 violations: [])
        #expect(entry.method == "PATCH" && entry.target == "/a?b=1")
        #expect(entry.headers == [["Host", "a"], ["X-Empty", ""], ["X-Inner", "b \tc"], ["X-Colon", "d:e"]])
        #expect(entry.header("x-inner") == "b \tc")
        let made = JournalEntry.make(method: "GET", target: "/with space")
        #expect(made.method == "GET" && made.target == "/with space" && made.headers == [["Host", "a"]])
    }

    /// Each entry is copied over the one it drops, whatever their shapes: targets of the same length or not,
    /// more fields or fewer.
    @Test func entries_CopiedOverTheDroppedOnes_KeepTheirOwnShape() {
        let journal = Journal(capacity: 2)
        var expected: [(target: String, headers: [[String]])] = []
        for number in 1...12 {
            let target = number % 4 < 2 ? "/\(number % 10)" : "/long/\(number)?q=\(number)"
            let headers = (0..<(number * 7 % 4)).map { ["X-\($0)", "v\(number)"] }
            journal.append(JournalEntry(method: "GET", target: target, fields: headers.map { ($0[0], $0[1]) },
                                        bodySize: 0, endpoint: nil, scenario: nil, status: 200, fault: nil, violations: []))
            expected.append((target, headers))
            let kept = journal.entries()
            #expect(kept.map(\.target) == expected.suffix(2).map(\.target), "after \(number)")
            #expect(kept.map(\.headers) == expected.suffix(2).map(\.headers), "after \(number)")
        }
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

    /// A reader that asks for a long backlog gets what fits in half its limit, newest first, and is told
    /// how many it missed.
    @Test func replay_FitsHalfTheLimit_AndCountsTheRest() throws {
        let journal = Journal(capacity: 100)
        for index in 0..<100 { journal.append(.make(target: "/\(index)")) }
        let eventSize = EventStreamFormat.event(for: journal.entries()[0]).count
        let stream = journal.subscribe(after: 0, limit: eventSize * 20)
        let text = JournalFeedTests.drain(stream)
        #expect(text.hasPrefix("retry: 1000\n\nevent: missed\ndata: {\"count\":"))
        let replayed = text.components(separatedBy: "event: request").count - 1
        #expect(replayed >= 9 && replayed <= 10)
        #expect(text.contains("event: missed\ndata: {\"count\":\(100 - replayed)}\n\n"))
        #expect(text.contains("id: 100\n"))
    }

    /// The facts a plain request has none of are kept out of line, and only when there is one (a session is kept
    /// inline): each one alone is kept, and survives the journal's JSON.
    @Test func eachRareFact_IsKept_OnItsOwn() throws {
        func entry(body: ([UInt8], Bool) = ([], false), fault: Fault? = nil, violations: [String] = [],
                   reason: String? = nil, session: String? = nil, sequence: String? = nil, step: Int? = nil,
                   delayMs: Int? = nil) -> JournalEntry {
            JournalEntry(method: "GET", target: "/a", fields: [], bodySize: body.0.count, body: body,
                         endpoint: nil, scenario: nil, status: 200, fault: fault, violations: violations, reason: reason,
                         session: session, scenarioSequence: sequence, scenarioStep: step, delayMs: delayMs)
        }
        let plain = entry()
        #expect(plain.details == nil && entry(session: "s").details == nil)
        let each: [(JournalEntry, (JournalEntry) -> Bool)] = [
            (entry(body: ([1], false)), { $0.body == [1] }),
            (entry(body: ([], true)), { $0.bodyTruncated }),
            (entry(fault: .noResponse), { $0.fault == .noResponse }),
            (entry(violations: ["v"]), { $0.violations == ["v"] }),
            (entry(reason: "r"), { $0.reason == "r" }),
            (entry(session: "s"), { $0.session == "s" }),
            (entry(sequence: "q"), { $0.scenarioSequence == "q" }),
            (entry(step: 3), { $0.scenarioStep == 3 }),
            (entry(delayMs: 7), { $0.delayMs == 7 }),
        ]
        for (candidate, holds) in each {
            #expect(holds(candidate) && !holds(plain))
            let decoded = try JSONDecoder().decode(JournalEntry.self, from: Data(candidate.json))
            #expect(holds(decoded) && decoded == candidate)
        }
    }

    /// The same object as the `Encodable` form, written by hand for speed.
    @Test func handWrittenJSON_DecodesToTheSameEntry_AsTheEncodableForm() throws {
        var entry = JournalEntry(method: "POST", target: "/a?b=\"c\"", fields: [("Host", "a"), ("X-Odd", "tab\there \u{1}é")],
                                 bodySize: 3, body: ([0xFF, 0, 1], false), endpoint: "e", scenario: "s", status: nil,
                                 fault: .connectionReset, violations: ["line\nbreak", "back\\slash"], reason: "why",
                                 session: "s/1", scenarioSequence: "flaky", scenarioStep: 2, delayMs: 40)
        entry.responseHead = Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Mock-Scenario: s\r\n".utf8)
        entry.responseLength = 12
        entry.bytesSent = 120
        entry.durationMicroseconds = 800_042
        for candidate in [entry, JournalEntry.make(target: "/plain")] {
            let fast = try JSONDecoder().decode(JournalEntry.self, from: Data(candidate.json))
            let slow = try JSONDecoder().decode(JournalEntry.self, from: Data(ServerJSON.encode(candidate)))
            #expect(fast == candidate && slow == candidate)
            let fastObject = try JSONSerialization.jsonObject(with: Data(candidate.json)) as? NSDictionary
            let slowObject = try JSONSerialization.jsonObject(with: Data(ServerJSON.encode(candidate))) as? NSDictionary
            #expect(fastObject == slowObject)
        }
        #expect(entry.durationMs == 800.042)
        #expect(entry.responseHeaders == [["Content-Type", "text/plain"], ["X-Mock-Scenario", "s"], ["Content-Length", "12"]])
    }
}
