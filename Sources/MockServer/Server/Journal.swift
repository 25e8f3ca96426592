#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// One request as the server saw and answered it.
public struct JournalEntry: Sendable, Codable, Equatable {
    /// Increases by one per request, across clears.
    public internal(set) var sequence: Int
    /// Wall-clock time of arrival; formatted only when read, so recording costs nothing extra.
    let seconds: Int
    let milliseconds: Int
    public let method: String
    public let target: String
    /// The header fields as parsed, shared with the request rather than copied.
    let fields: [(name: String, value: String)]
    public let bodySize: Int
    /// The request body as journaled: its first 64 KiB, with secret fields redacted (see
    /// `--journal-secrets`); empty when there was none.
    public let body: [UInt8]
    /// Whether ``body`` stops short of what was sent.
    public let bodyTruncated: Bool
    /// The contract endpoint the request matched, if any.
    public let endpoint: String?
    /// The scenario played, if any.
    public let scenario: String?
    /// The status sent, or `nil` when a fault sent none.
    public let status: Int?
    /// The fault played, if any.
    public let fault: String?
    /// How the request broke its contract; empty when it conformed.
    public let violations: [String]
    /// Why the server answered as it did when that is not the scenario's doing (a fixture missing, a
    /// request it could not parse), else `nil`.
    public let reason: String?
    /// The request's `X-Mock-Session`, or `nil` for the default session.
    public internal(set) var session: String?
    /// What chose the scenario: `header`, `override`, `state`, `server` (`--scenario`) or `first`.
    public var selectedBy: String? { selection?.rawValue }
    /// ``selectedBy`` as kept: one byte, where a string would cost a copy on the request path.
    var selection: Selection.Reason?
    /// The sequence scenario that played ``scenario`` as its step number ``scenarioStep`` (1 for the
    /// first), if any.
    public internal(set) var scenarioSequence: String?
    public internal(set) var scenarioStep: Int?
    /// Milliseconds the reply waited before it was sent (the scenario's delay and latency draws); absent
    /// when it did not wait.
    public internal(set) var delayMs: Int?

    /// ``body`` as text, or `nil` when it is not UTF-8.
    public var bodyText: String? {
        // Decoding repairs invalid UTF-8; a repaired text differs from the bytes. (`String(validating:)` needs
        // macOS 15.)
        let text = String(decoding: body, as: UTF8.self)
        return text.utf8.elementsEqual(body) ? text : nil
    }

    /// ISO 8601, UTC, with milliseconds.
    public var time: String { HTTPDate.iso8601(seconds: seconds, milliseconds: milliseconds) }

    /// Header fields in arrival order, as `[name, value]` pairs.
    public var headers: [[String]] { fields.map { [$0.name, $0.value] } }

    /// The first value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        fields.first { HTTPHeaders.equal($0.name, name) }?.value
    }

    init(method: String, target: String, fields: [(name: String, value: String)], bodySize: Int,
         body: (bytes: [UInt8], truncated: Bool) = ([], false), endpoint: String?, scenario: String?, status: Int?,
         fault: String?, violations: [String], reason: String? = nil) {
        (seconds, milliseconds) = POSIX.wallClock()
        sequence = 0
        self.method = method
        self.target = target
        self.fields = fields
        self.bodySize = bodySize
        self.body = body.bytes
        bodyTruncated = body.truncated
        self.endpoint = endpoint
        self.scenario = scenario
        self.status = status
        self.fault = fault
        self.violations = violations
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case sequence, time, method, target, headers, bodySize, body, bodyBase64, bodyTruncated, endpoint, scenario,
             status, fault, violations, reason, session, selectedBy, scenarioSequence, scenarioStep, delayMs
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(time, forKey: .time)
        try container.encode(method, forKey: .method)
        try container.encode(target, forKey: .target)
        try container.encode(headers, forKey: .headers)
        try container.encode(bodySize, forKey: .bodySize)
        if let text = bodyText {
            if !text.isEmpty { try container.encode(text, forKey: .body) }
        } else {
            try container.encode(Data(body).base64EncodedString(), forKey: .bodyBase64)
        }
        if bodyTruncated { try container.encode(true, forKey: .bodyTruncated) }
        try container.encodeIfPresent(endpoint, forKey: .endpoint)
        try container.encodeIfPresent(scenario, forKey: .scenario)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(fault, forKey: .fault)
        try container.encode(violations, forKey: .violations)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(session, forKey: .session)
        try container.encodeIfPresent(selectedBy, forKey: .selectedBy)
        try container.encodeIfPresent(scenarioSequence, forKey: .scenarioSequence)
        try container.encodeIfPresent(scenarioStep, forKey: .scenarioStep)
        try container.encodeIfPresent(delayMs, forKey: .delayMs)
    }

    /// Reads an entry as `GET /__mock/journal` writes it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(Int.self, forKey: .sequence)
        let time = try container.decode(String.self, forKey: .time)
        (seconds, milliseconds) = HTTPDate.parseISO8601(time) ?? (0, 0)
        method = try container.decode(String.self, forKey: .method)
        target = try container.decode(String.self, forKey: .target)
        fields = try container.decode([[String]].self, forKey: .headers).map { ($0.first ?? "", $0.last ?? "") }
        bodySize = try container.decode(Int.self, forKey: .bodySize)
        if let text = try container.decodeIfPresent(String.self, forKey: .body) {
            body = Array(text.utf8)
        } else if let base64 = try container.decodeIfPresent(String.self, forKey: .bodyBase64) {
            body = Data(base64Encoded: base64).map(Array.init) ?? []
        } else {
            body = []
        }
        bodyTruncated = try container.decodeIfPresent(Bool.self, forKey: .bodyTruncated) ?? false
        endpoint = try container.decodeIfPresent(String.self, forKey: .endpoint)
        scenario = try container.decodeIfPresent(String.self, forKey: .scenario)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        fault = try container.decodeIfPresent(String.self, forKey: .fault)
        violations = try container.decode([String].self, forKey: .violations)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        selection = try container.decodeIfPresent(String.self, forKey: .selectedBy).flatMap(Selection.Reason.init)
        scenarioSequence = try container.decodeIfPresent(String.self, forKey: .scenarioSequence)
        scenarioStep = try container.decodeIfPresent(Int.self, forKey: .scenarioStep)
        delayMs = try container.decodeIfPresent(Int.self, forKey: .delayMs)
    }

    public static func == (lhs: JournalEntry, rhs: JournalEntry) -> Bool {
        lhs.sequence == rhs.sequence && lhs.seconds == rhs.seconds && lhs.milliseconds == rhs.milliseconds
            && lhs.method == rhs.method && lhs.target == rhs.target && lhs.headers == rhs.headers
            && lhs.bodySize == rhs.bodySize && lhs.body == rhs.body && lhs.bodyTruncated == rhs.bodyTruncated
            && lhs.endpoint == rhs.endpoint && lhs.scenario == rhs.scenario
            && lhs.status == rhs.status && lhs.fault == rhs.fault && lhs.violations == rhs.violations
            && lhs.reason == rhs.reason && lhs.session == rhs.session && lhs.selection == rhs.selection
            && lhs.scenarioSequence == rhs.scenarioSequence && lhs.scenarioStep == rhs.scenarioStep
    }
}

/// The last requests the server handled, in a bounded ring, for the admin API and for tests; and the
/// live feed of them as server-sent events (`GET /__mock/events`).
public final class Journal: Sendable {
    private struct Ring {
        var entries: [JournalEntry] = []
        var start = 0
        var nextSequence = 1
        /// Streams of `GET /__mock/events`; each gets every entry as it is appended.
        var subscribers: [ReplyStream] = []

        var ordered: [JournalEntry] { Array(entries[start...] + entries[..<start]) }

        /// Sends `event` to every subscriber, dropping those that are gone.
        mutating func publish(_ event: [UInt8]) {
            subscribers.removeAll { !$0.send(event) }
        }
    }

    /// How many entries are kept; older ones are dropped.
    public let capacity: Int
    private let ring = Locked(Ring())

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The kept entries, oldest first.
    public func entries() -> [JournalEntry] {
        ring.withValue { $0.ordered }
    }

    /// Forgets every entry (sequence numbers keep increasing).
    public func clear() {
        ring.withValue { ring in
            ring.entries.removeAll()
            ring.start = 0
            ring.publish(EventStreamFormat.event("clear", data: "{}"))
        }
    }

    func append(_ entry: consuming JournalEntry) {
        var entry = entry
        ring.withValue { ring in
            entry.sequence = ring.nextSequence
            ring.nextSequence += 1
            // Encoded, and sent, under the lock only while someone listens: subscribers see entries in
            // sequence order, and a server nobody watches pays nothing.
            if !ring.subscribers.isEmpty { ring.publish(EventStreamFormat.event(for: entry)) }
            if ring.entries.count < capacity {
                ring.entries.append(entry)
            } else {
                // Swapped in rather than copied; the dropped entry is released after the lock.
                swap(&ring.entries[ring.start], &entry)
                ring.start = (ring.start + 1) % capacity
            }
        }
    }

    /// Sends every later entry to `stream`, starting with the kept ones after sequence `lastSeen` (none
    /// when `nil`). The replay is bounded to half the stream's queue, newest entries first, so a reader
    /// that asks for much is not dropped before its first event; when entries after `lastSeen` were
    /// dropped from the ring or left out of the replay, a `missed` event says how many first.
    func subscribe(_ stream: ReplyStream, after lastSeen: Int?) {
        ring.withValue { ring in
            ring.subscribers.removeAll { !$0.isOpen }
            stream.send(EventStreamFormat.retry)
            if let lastSeen {
                var replay: [[UInt8]] = []
                var bytes = 0
                var firstReplayed = ring.nextSequence
                for entry in ring.ordered.reversed() where entry.sequence > lastSeen {
                    let event = EventStreamFormat.event(for: entry)
                    guard bytes + event.count <= stream.limit / 2 else { break }
                    bytes += event.count
                    replay.append(event)
                    firstReplayed = entry.sequence
                }
                if firstReplayed - lastSeen > 1 {
                    stream.send(EventStreamFormat.event("missed", data: #"{"count":\#(firstReplayed - lastSeen - 1)}"#))
                }
                for event in replay.reversed() { stream.send(event) }
            }
            ring.subscribers.append(stream)
        }
    }

    /// How many event streams are open (closed ones are noticed at the next entry).
    var subscriberCount: Int { ring.withValue { $0.subscribers.count } }
}
