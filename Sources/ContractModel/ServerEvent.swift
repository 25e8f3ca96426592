/// One server-sent event of a scenario's `"events"` (HTML Living Standard §9.2): its `data` (required), and an
/// optional `event` name, `id` (what a reconnecting client sends back as `Last-Event-ID`), `retry` (milliseconds
/// before a client reconnects) and `delayMs` (counted from the event before, or from the response head).
///
/// ```json
/// "events": [ { "data": "Hel", "delayMs": 100 }, { "event": "done", "data": "{\"tokens\": 2}", "id": "2", "delayMs": 300 } ]
/// ```
package struct ServerEvent: Sendable, Equatable {
    package var event: String?
    package var data: String
    package var id: String?
    package var retry: Int?
    package var delayMs: Int

    package init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil, delayMs: Int = 0) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
        self.delayMs = delayMs
    }

    /// The keys an event may have (``ContractSchema``).
    package static var keys: Set<String> { ContractSchema.keys(of: .event) }

    /// The event as the stream carries it, with `data` in place of its own (a rendered template): each line of the
    /// data its own `data:` line, a blank line after. Lines end at CR, LF or CRLF, as a client splits them (HTML
    /// §9.2.6), so no value from a request can start a field or an event of its own; a line break in `event` or
    /// `id` (which the contract refuses, but code may pass) becomes a space.
    package func encoded(data: String? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        func field(_ name: String, _ value: String) {
            bytes += Array("\(name): ".utf8)
            bytes += value.utf8.map { $0 == 10 || $0 == 13 ? UInt8(ascii: " ") : $0 }
            bytes.append(10)
        }
        if let event { field("event", event) }
        if let id { field("id", id) }
        if let retry { field("retry", String(retry)) }
        let text = Array((data ?? self.data).utf8)
        var start = 0, index = 0
        while index <= text.count {
            if index == text.count || text[index] == 10 || text[index] == 13 {
                bytes += Array("data: ".utf8) + text[start..<index] + [10]
                if index < text.count && text[index] == 13 && index + 1 < text.count && text[index + 1] == 10 { index += 1 }
                start = index + 1
            }
            index += 1
        }
        return bytes + [10]
    }

    /// As a contract writes it, defaults left out.
    package var json: JSONValue {
        var fields: [String: JSONValue] = ["data": .string(data)]
        if let event { fields["event"] = .string(event) }
        if let id { fields["id"] = .string(id) }
        if let retry { fields["retry"] = .integer(retry) }
        if delayMs != 0 { fields["delayMs"] = .integer(delayMs) }
        return .object(fields)
    }

    /// A list of events as a contract or an events fixture holds it, or the first problem, with where it is
    /// (`[1].data`).
    package static func list(from value: JSONValue) -> Result<[ServerEvent], Problem> {
        guard case .array(let items) = value else { return .failure(Problem(at: "", "expected a list of events")) }
        var events: [ServerEvent] = []
        for (index, item) in items.enumerated() {
            let at = "[\(index)]"
            guard case .object(let fields) = item else { return .failure(Problem(at: at, "expected an object")) }
            for key in fields.keys.sorted() where !keys.contains(key) {
                return .failure(Problem(at: at + "." + key, "unknown key; allowed: " + keys.sorted().joined(separator: ", ")))
            }
            guard case .string(let data)? = fields["data"] else {
                return .failure(Problem(at: at + ".data", "is required: a string (JSON goes in as text)"))
            }
            var event = ServerEvent(data: data)
            for name in ["event", "id"] {
                guard let value = fields[name] else { continue }
                guard case .string(let text) = value, !text.contains("\n"), !text.contains("\r") else {
                    return .failure(Problem(at: at + "." + name, "expected a string on one line"))
                }
                if name == "event" { event.event = text } else { event.id = text }
            }
            if let value = fields["retry"] {
                guard case .number(let number) = value, number.rounded() == number, (0...86_400_000).contains(number) else {
                    return .failure(Problem(at: at + ".retry", "expected milliseconds, 0...86400000"))
                }
                event.retry = Int(number)
            }
            if let value = fields["delayMs"] {
                guard case .number(let number) = value, number.rounded() == number, (0...60_000).contains(number) else {
                    return .failure(Problem(at: at + ".delayMs", "expected milliseconds, 0...60000"))
                }
                event.delayMs = Int(number)
            }
            events.append(event)
        }
        if events.isEmpty { return .failure(Problem(at: "", "lists no event")) }
        return .success(events)
    }

    /// Where a list of events is wrong, and how.
    package struct Problem: Error, Equatable {
        package let at: String
        package let reason: String

        init(at: String, _ reason: String) {
            self.at = at
            self.reason = reason
        }
    }
}

/// A scenario's `"events"`: the events an SSE answer sends, written in the contract or in a fixture file, and what
/// follows the last one (`"afterLast"`).
package struct EventScript: Sendable, Equatable {
    package enum Source: Sendable, Equatable {
        case inline([ServerEvent])
        /// A fixture file holding the list, read when a request plays it.
        case fixture(String)
    }

    /// What the stream does after its last event.
    package enum AfterLast: String, Sendable, CaseIterable {
        /// It ends: the response is complete (the default).
        case close
        /// It stays open, sending a comment now and then, until the client leaves.
        case keepOpen
        /// The connection is reset (TCP RST): a stream that breaks after its events, as a dropped network does.
        case reset
        /// It stays open and sends nothing more, not even a keep-alive: a stream that stalls.
        case stall
    }

    package let source: Source
    package let afterLast: AfterLast

    package init(source: Source, afterLast: AfterLast) {
        self.source = source
        self.afterLast = afterLast
    }

    /// As a contract writes `"events"`.
    package var json: JSONValue {
        switch source {
        case .inline(let events): .array(events.map(\.json))
        case .fixture(let path): .string(path)
        }
    }
}
