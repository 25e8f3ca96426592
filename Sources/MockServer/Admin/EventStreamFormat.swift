import HTTPCore

/// Server-sent events as `GET /__mock/events` writes them (HTML Living Standard §9.2): one event per
/// journal entry, its sequence as the `id` so that a reconnecting `EventSource` resumes where it left off.
enum EventStreamFormat {
    /// How soon a browser reconnects after the stream ends.
    static let retry = Array("retry: 1000\n\n".utf8)

    static func event(for entry: JournalEntry) -> [UInt8] {
        var bytes = Array("id: \(entry.sequence)\nevent: request\ndata: ".utf8)
        // JSONEncoder writes one line: no line break can end the data field early.
        bytes += ServerJSON.encode(entry)
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
