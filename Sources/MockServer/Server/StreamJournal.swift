import HTTPCore

/// Journals the messages of one open stream (``StreamMessage``): each an entry with the opening request's target,
/// headers (as the journal shows them), endpoint, scenario and session, and the message as its body.
struct StreamJournal: Sendable {
    let journal: Journal
    let redaction: BodyRedaction
    let requestHead: [UInt8]
    let secrets: HeaderRedaction.Marks
    let endpoint: String
    let scenario: String
    /// `nil` for the default session, as a request's entry has it.
    let session: String?

    /// Journals one message; `reason` says how a socket ended, for a `close`.
    func record(_ direction: StreamMessage.Direction, _ kind: StreamMessage.Kind, bytes: (bytes: [UInt8], truncated: Bool),
                size: Int, reason: String? = nil) {
        journal.append(JournalEntry(requestHead: requestHead, secrets: secrets, bodySize: size, body: bytes,
                                    endpoint: endpoint, scenario: scenario, status: nil, fault: nil, violations: [],
                                    reason: reason, session: session, message: StreamMessage(direction: direction, kind: kind)))
    }

    /// Journals a WebSocket message.
    func record(_ direction: StreamMessage.Direction, _ message: WebSocketMessage) {
        let size = switch message {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
        record(direction, message.isText ? .text : .binary, bytes: redaction.capture(message: message), size: size)
    }
}

extension WebSocketMessage {
    var isText: Bool { if case .text = self { true } else { false } }
}
