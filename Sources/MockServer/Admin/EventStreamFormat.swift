import HTTPCore

/// Server-sent events as `GET /__mock/events` writes them (HTML Living Standard §9.2): one `request` event
/// per journal entry, its sequence as the `id` so that a reconnecting `EventSource` resumes where it left
/// off; `update` when an entry sent before its reply went out is complete; `missed` and `clear`.
enum EventStreamFormat {
    /// How soon a browser reconnects after the stream ends.
    static let retry = Array("retry: 1000\n\n".utf8)

    static func event(for entry: JournalEntry) -> [UInt8] {
        var bytes = Array("id: \(entry.sequence)\nevent: request\ndata: ".utf8)
        // The JSON is one line (strings escape their line breaks): no line break can end the data field early.
        entry.appendJSON(to: &bytes)
        bytes += Array("\n\n".utf8)
        return bytes
    }

    /// An entry again, once its reply went out (its duration, bytes and response headers filled in). No `id`:
    /// the last event id a reconnecting reader sends stays the newest entry's.
    static func update(_ entry: JournalEntry) -> [UInt8] {
        var bytes = Array("event: update\ndata: ".utf8)
        entry.appendJSON(to: &bytes)
        bytes += Array("\n\n".utf8)
        return bytes
    }

    static func event(_ name: String, data: String) -> [UInt8] {
        Array("event: \(name)\ndata: \(data)\n\n".utf8)
    }

    /// The response head: an event stream nothing may cache or buffer.
    static let response = HTTPResponse(status: .ok, headers: [
        ("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
        ("X-Accel-Buffering", "no"),
    ])
}
