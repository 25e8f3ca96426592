import HTTPCore

/// The last requests the server handled, in a bounded ring, for the admin API and for tests; and the
/// live feed of them as server-sent events (`GET /__mock/events`, in `Journal+Feeds.swift`).
public final class Journal: Sendable {
    struct Ring {
        var entries: [JournalEntry] = []
        /// Each entry's event as the feeds send it, written when a feed first needs it; same indices as
        /// ``entries``.
        var events: [[UInt8]?] = []
        var start = 0
        var nextSequence = 1
        /// One per open `GET /__mock/events`.
        var feeds: [FeedState] = []

        var ordered: [JournalEntry] { Array(entries[start...] + entries[..<start]) }

        /// Asks the CPU for the memory that the next appends to a full ring write, which the requests since it was
        /// last written (a thousand, by default, and their responses through the kernel) have pushed out of its
        /// caches: the entry after the next one; the next entry's head storage, whose address that entry holds (its
        /// lines asked for by the append before); and the next entry's slot among the events. Without it, an append
        /// waited for each of those lines in turn: time lost to cache misses, which a profile under load shows and
        /// callgrind, which counts instructions, cannot see. Nothing where the platform has no prefetch (Darwin).
        /// - Parameter headBytes: The length of the head just kept: the next is likely as long.
        func prefetchNextSlots(headBytes: Int) {
            guard LibC.prefetches else { return }
            // The storage object's header (32 bytes) and the head's bytes, and one line more, as the object need not
            // start at a line's start; up to 8 lines.
            let headStorageLines = min(8, (32 + headBytes + 63) / 64 + 1)
            let next = start
            let afterNext = next + 1 == entries.count ? 0 : next + 1
            let lineSize = 64
            entries.withUnsafeBufferPointer { entries in
                guard let base = entries.baseAddress else { return }
                // Every line the entry touches: it need not start at a line's start either.
                let entry = UnsafeRawPointer(base + afterNext)
                for offset in stride(from: 0, to: MemoryLayout<JournalEntry>.stride, by: lineSize) {
                    LibC.prefetchForWrite(entry + offset)
                }
                LibC.prefetchForWrite(entry + MemoryLayout<JournalEntry>.stride - 1)
                // The next entry's head storage, an array: one reference to an object that holds its count, then its
                // bytes. The reference is read from the entry's bytes, as reading the array would retain it: a write
                // to the very line asked for, which the append would then wait on here. (A wrong address would only
                // waste the hint: a prefetch never faults.)
                guard let offset = MemoryLayout<JournalEntry>.offset(of: \JournalEntry.requestHead) else { return }
                let bits = UnsafeRawPointer(base + next).load(fromByteOffset: offset, as: UInt.self)
                guard let storage = UnsafeRawPointer(bitPattern: bits) else { return }
                for line in 0..<headStorageLines { LibC.prefetchForWrite(storage + line * lineSize) }
            }
            events.withUnsafeBufferPointer { events in
                if let base = events.baseAddress { LibC.prefetchForWrite(base + next) }
            }
        }

        /// Where the `offset`-th oldest kept entry is.
        func slot(_ offset: Int) -> Int { (start + offset) % entries.count }

        /// Where the entry numbered `sequence` is, if it is still kept.
        func slot(of sequence: Int) -> Int? {
            guard let first = entries.isEmpty ? nil : entries[start].sequence else { return nil }
            let offset = sequence - first
            guard offset >= 0, offset < entries.count else { return nil }
            return slot(offset)
        }

        /// The event for the entry at `slot`, written once.
        mutating func event(at slot: Int) -> [UInt8] {
            if let event = events[slot] { return event }
            let event = EventStreamFormat.event(for: entries[slot])
            events[slot] = event
            return event
        }

        /// Tells every feed that waits for news, dropping those whose reader is gone.
        mutating func notifyWaiting(where condition: (FeedState) -> Bool = { _ in true }) {
            guard feeds.contains(where: \.waiting) else { return }
            feeds.removeAll { feed in
                guard feed.waiting, condition(feed) else { return false }
                return !feed.stream.notify()
            }
            for index in feeds.indices where feeds[index].waiting && condition(feeds[index]) {
                feeds[index].waiting = false
            }
        }
    }

    /// How many entries are kept; older ones are dropped.
    public let capacity: Int
    let ring = Locked(Ring())

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The kept entries, oldest first.
    public func entries() -> [JournalEntry] {
        ring.withValue { $0.ordered }
    }

    /// Forgets every entry (sequence numbers keep increasing). Open feeds get a `clear` event.
    public func clear() {
        ring.withValue { ring in
            ring.entries.removeAll()
            ring.events.removeAll()
            ring.start = 0
            for index in ring.feeds.indices {
                ring.feeds[index].clearPending = true
                ring.feeds[index].lastSent = ring.nextSequence - 1
                ring.feeds[index].unfinished = []
            }
            ring.notifyWaiting()
        }
    }

    /// Records `entry` with the next sequence number, and returns that number.
    @discardableResult
    func append(_ entry: consuming JournalEntry) -> Int {
        var entry = entry
        var event: [UInt8]? = nil
        return ring.withValue { ring in
            let sequence = ring.nextSequence
            entry.sequence = sequence
            ring.nextSequence += 1
            if ring.entries.count < capacity {
                var storage: [UInt8] = []
                entry.keep(in: &storage)
                ring.entries.append(entry)
                ring.events.append(nil)
            } else {
                // Swapped in rather than copied; the dropped entry is released after the lock, and its storage
                // takes the new one's request head.
                swap(&ring.entries[ring.start], &entry)
                swap(&ring.events[ring.start], &event)
                var storage = entry.takeStorage()
                let headBytes = ring.entries[ring.start].keep(in: &storage)
                ring.start = (ring.start + 1) % capacity
                ring.prefetchNextSlots(headBytes: headBytes)
            }
            // Feeds write their events when their readers can take them: here only a flag per feed is read.
            ring.notifyWaiting()
            return sequence
        }
    }

    /// Fills in how the request numbered `sequence` was answered, once its reply went to the socket: the
    /// response head and announced length (`responseHead` empty for a fault without one), the bytes
    /// handed to the socket, and the time since the request's first byte.
    func complete(_ sequence: Int, responseHead: [UInt8], responseLength: Int?, bytesSent: Int,
                  durationNanoseconds: UInt64) {
        ring.withValue { ring in
            guard let slot = ring.slot(of: sequence) else { return }
            ring.entries[slot].responseHead = responseHead
            ring.entries[slot].responseLength = responseLength
            ring.entries[slot].bytesSent = bytesSent
            ring.entries[slot].durationMicroseconds = Int(durationNanoseconds / 1_000)
            ring.events[slot] = nil
            ring.notifyWaiting { !$0.unfinished.isEmpty }
        }
    }

    /// The sequence number of the last entry recorded (0 before the first).
    var lastSequence: Int { ring.withValue { $0.nextSequence - 1 } }

    /// How many event streams are open.
    var subscriberCount: Int {
        ring.withValue { ring in
            ring.feeds.removeAll { !$0.stream.isOpen }
            return ring.feeds.count
        }
    }
}
