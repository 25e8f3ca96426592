import HTTPCore

/// What a request's method and target alone decide, remembered for the contract set that decided it: the router's
/// match, with the path's parameters, and what the path parameters and the query break. One for each thread that
/// serves requests (each event loop's, through ``PerThread``), read without a lock.
///
/// Routing a static request and checking its query were a good part of its cost; a method and target seen before
/// cost a hash and a comparison instead. An app, and a load test, ask for a few targets again and again; one not seen
/// before costs the hash, a verdict and a copy of its key more.
///
/// Each slot keeps the last target whose hash picked it: two targets that share a slot take turns in it, and are
/// decided afresh as often. A verdict is given only for the set that decided it; the first verdict kept for another
/// set empties the memo. Until then the old verdicts, and the old set, stay in memory: an event loop's until its
/// server's next request, or until it ends with its server; a thread of the in-process dispatcher
/// (``MockServer/reply(to:)``) may keep them longer.
///
/// Rules of the request path in this folder. What a method and target decide (the router's match with the path's
/// parameters, the path parameters' and the query's violations, and which `when` rule holds for a route whose rules
/// read only the query and path parameters, ``Route/rulesReadTargetOnly``) is worked out once for each serving thread
/// and contract set and kept in its memo, for as long as the target keeps its slot; a method and target longer than
/// ``longestKey`` bytes are decided every time. Nothing that depends on more than the method and target (a header, a
/// cookie, the body, the session, a scenario asked for by name) goes into a ``Verdict``: a route whose rules read any
/// of those has them tested on every request. The router compares a path's segments with its literals as bytes, in
/// place; at a node with more than four literal children it hashes the segment's text to find the one literal to
/// compare, and it compares methods as ``HTTPRequest/Method`` values (their strings).
/// Measure a change to this path with `Tests/Benchmarks/instructions.sh` before and after; figures go to
/// Tests/Benchmarks/HISTORY.md, not here.
final class TargetMemo {
    /// A request's method, a space and its target, in place in its head, and where the target starts among those
    /// bytes: two requests with the same key have the same method and target, even where a method made in code holds
    /// a space.
    struct Key {
        let bytes: UnsafeRawBufferPointer
        let targetStart: Int

        /// Calls `body` with `request`'s key, which lives as long as the call.
        static func with<T>(_ request: HTTPRequest, _ body: (Key) -> T) -> T {
            let target = request.targetRange
            return request.head.withUnsafeBytes {
                body(Key(bytes: UnsafeRawBufferPointer(rebasing: $0[..<target.upperBound]), targetStart: target.lowerBound))
            }
        }
    }

    /// What a method and target decide. A class: handing one out costs one reference, not one for each of its parts.
    final class Verdict {
        let match: Router.Match
        /// The path parameters' and the query's violations, in the order ``RequestValidator`` reports them.
        let violations: [String]
        /// The key's bytes and where its target starts, as kept.
        fileprivate let key: [UInt8]
        fileprivate let targetStart: Int
        /// For a route whose `when` rules read only the target (query and path parameters): which rule held, once
        /// a request found out. The target decides it, so the next request with this target tests nothing. Set
        /// and read by this verdict's event loop alone, as the memo is.
        @exclusivity(unchecked) var ruled: RuleOutcome = .unknown
        /// The body a scenario (by ``ScenarioPlay/serial``) answered this target with, when the target alone decided it
        /// (a fixture path filled from it, a template that reads nothing else), while the fixtures are as they were
        /// (``FixtureStore/trustedGeneration``). Set and read by this verdict's event loop alone.
        @exclusivity(unchecked) var body: (serial: Int, generation: Int, bytes: [UInt8])?

        init(match: Router.Match, violations: [String], key: [UInt8] = [], targetStart: Int = 0) {
            self.match = match
            self.violations = violations
            self.key = key
            self.targetStart = targetStart
        }
    }

    /// Which `when` rule of a route holds for a target, as a ``Verdict`` keeps it.
    enum RuleOutcome {
        case unknown
        case none
        /// The index in ``Route/ruleSets``, and the rule's in that scenario's `when`.
        case holding(set: Int, rule: Int)
    }

    /// The memo has 2^slotBits slots.
    static let slotBits = 8
    /// A longer method and target is decided every time rather than kept (the request line may be 8 KB).
    static let longestKey = 512

    // Unchecked: a memo is its thread's alone (``PerThread``), so the runtime's exclusivity checks, calls into the
    // runtime on every request, guard nothing.
    /// The contract set the verdicts are of.
    @exclusivity(unchecked) private var serving: ServingSet?
    @exclusivity(unchecked) private var slots: [Verdict?] = Array(repeating: nil, count: 1 << TargetMemo.slotBits)

    /// The verdict kept for `key` in `serving`, if any.
    func verdict(for key: Key, in serving: ServingSet) -> Verdict? {
        guard serving === self.serving, let verdict = slots[Self.slot(of: key.bytes)],
              verdict.targetStart == key.targetStart, verdict.key.withUnsafeBytes({ ShortBytes.equal($0, key.bytes) })
        else { return nil }
        return verdict
    }

    /// The verdict of `match` and `violations` on `key`, kept for it in `serving` in place of what its slot held;
    /// every verdict of another set is forgotten.
    func remember(_ match: Router.Match, violations: [String], for key: Key, in serving: ServingSet) -> Verdict {
        guard key.bytes.count <= Self.longestKey else { return Verdict(match: match, violations: violations) }
        if serving !== self.serving {
            self.serving = serving
            for index in slots.indices { slots[index] = nil }
        }
        let verdict = Verdict(match: match, violations: violations, key: Array(key.bytes), targetStart: key.targetStart)
        slots[Self.slot(of: key.bytes)] = verdict
        return verdict
    }

    /// The slot `key` hashes to: eight bytes at a time, each word multiplied in, the top bits of the result (on
    /// which every bit of the input has a bearing).
    static func slot(of key: UnsafeRawBufferPointer) -> Int {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(truncatingIfNeeded: key.count) &* multiplier
        var offset = 0
        // `&+`: a key's offsets are far from overflowing, and the checks cost more than the loop's work.
        while offset &+ 8 <= key.count {
            hash = (hash ^ key.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            offset &+= 8
        }
        if offset < key.count {
            var tail: UInt64 = 0
            if key.count >= 8 {
                // The last eight bytes, overlapping the word before.
                tail = key.loadUnaligned(fromByteOffset: key.count - 8, as: UInt64.self)
            } else {
                for index in offset..<key.count { tail = tail << 8 | UInt64(key[index]) }
            }
            hash = (hash ^ tail) &* multiplier
        }
        return Int(truncatingIfNeeded: hash >> UInt64(64 - slotBits))
    }
}
