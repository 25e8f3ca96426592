import HTTPCore

/// The journal as server-sent events: one feed per `GET /__mock/events` reader. A feed's events are
/// written when its connection can send them (its socket took everything before, and at most every
/// ``Journal/eventInterval``), never on the request path: a request only flips a flag for each feed that
/// waits for news. A reader that stops reading costs nothing while it stops; when it reads again it is
/// told how many events it missed (`missed`, `{"count":N}`) and gets the newest that fit.
extension Journal {
    /// What the journal knows of one feed, kept under its lock.
    struct FeedState {
        let source: JournalFeed
        let stream: ReplyStream
        /// The sequence of the last entry sent (or counted as missed).
        var lastSent: Int
        /// The first turn: a reconnecting reader's backlog, which may take half the stream's limit.
        var replaying: Bool
        /// `DELETE /__mock/journal` happened since the last turn.
        var clearPending = false
        /// The last turn found nothing to send: the next entry must wake the connection.
        var waiting = false
        /// Entries sent before their reply went out, sent again (as `update`) once it has.
        var unfinished: [Int] = []
    }

    /// The least time between two writes to one reader: 100 ms, so that a busy server writes each
    /// reader ten times a second at most, whatever the request rate.
    static let eventInterval: UInt64 = 100_000_000
    /// A reader gets at most its stream's limit divided by this per turn once it caught up (32 KiB for the
    /// default 1 MiB, some 80 events: 800 a second, more than a page can show); the rest is counted as
    /// missed. A reader of a server under load costs its connection 320 KiB of writes a second at most.
    static let liveShare = 32
    /// Sequences of unfinished entries a feed remembers.
    private static let unfinishedLimit = 256

    /// A stream of every later entry, starting with the kept ones after sequence `lastSeen` (none when
    /// `nil`). The first turn takes up to half of `limit`, newest entries first; every later turn up to
    /// `limit / liveShare`. When entries after `lastSeen` were dropped from the ring or did not fit, a
    /// `missed` event says how many first.
    func subscribe(after lastSeen: Int?, limit: Int) -> ReplyStream {
        let source = JournalFeed(journal: self)
        let stream = ReplyStream(source: source, limit: limit, interval: Self.eventInterval)
        stream.send(EventStreamFormat.retry)
        ring.withValue { ring in
            ring.feeds.removeAll { !$0.stream.isOpen }
            ring.feeds.append(FeedState(source: source, stream: stream, lastSent: lastSeen ?? ring.nextSequence - 1,
                                        replaying: lastSeen != nil))
        }
        return stream
    }

    /// The events of `feed` since its last turn, at most about `maxBytes`; empty when there is nothing new.
    func nextEvents(for feed: JournalFeed, maxBytes: Int) -> [UInt8] {
        ring.withValue { ring in
            guard let index = ring.feeds.firstIndex(where: { $0.source === feed }) else { return [] }
            var state = ring.feeds[index]
            var out: [UInt8] = []
            if state.clearPending {
                out += EventStreamFormat.event("clear", data: "{}")
                state.clearPending = false
            }
            // Replies that went out since their request was sent.
            if !state.unfinished.isEmpty {
                state.unfinished.removeAll { sequence in
                    guard let slot = ring.slot(of: sequence) else { return true }
                    guard ring.entries[slot].durationMicroseconds != nil else { return false }
                    out += EventStreamFormat.update(ring.entries[slot])
                    return true
                }
            }
            // New entries, newest first until the budget is spent (at least one), then sent oldest first.
            let budget = state.replaying ? maxBytes / 2 : maxBytes / Self.liveShare
            var chosen: [Int] = []
            var bytes = 0
            for offset in stride(from: ring.entries.count - 1, through: 0, by: -1) {
                let slot = ring.slot(offset)
                guard ring.entries[slot].sequence > state.lastSent else { break }
                let size = ring.event(at: slot).count
                guard chosen.isEmpty || bytes + size <= budget else { break }
                bytes += size
                chosen.append(slot)
            }
            let newest = ring.nextSequence - 1
            if newest > state.lastSent {
                let firstSent = chosen.last.map { ring.entries[$0].sequence } ?? newest + 1
                let missed = firstSent - state.lastSent - 1
                if missed > 0 { out += EventStreamFormat.event("missed", data: #"{"count":\#(missed)}"#) }
                for slot in chosen.reversed() {
                    out += ring.event(at: slot)
                    if ring.entries[slot].durationMicroseconds == nil {
                        state.unfinished.append(ring.entries[slot].sequence)
                    }
                }
                if state.unfinished.count > Self.unfinishedLimit {
                    state.unfinished.removeFirst(state.unfinished.count - Self.unfinishedLimit)
                }
                state.lastSent = newest
            }
            state.replaying = false
            state.waiting = out.isEmpty
            ring.feeds[index] = state
            return out
        }
    }
}

/// One reader's source of events: asks the journal, which keeps the feed's state under its lock.
final class JournalFeed: ReplyStreamSource, @unchecked Sendable {
    // @unchecked: `journal` is set once, in init, and only read afterwards. Weak, because the journal
    // holds the feed's stream, which holds this source.
    private weak var journal: Journal?

    init(journal: Journal) { self.journal = journal }

    func next(maxBytes: Int) -> [UInt8] {
        journal?.nextEvents(for: self, maxBytes: maxBytes) ?? []
    }
}
