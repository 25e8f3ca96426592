import ContractModel
import HTTPCore

/// Sends a scenario's server-sent events into a pushed ``ReplyStream`` at their times: each one `delayMs` after the
/// one before (the first after the response head), on a task of its own, so no event loop waits. It stops when the
/// client leaves (the stream refuses a send); after the last event it ends the stream, or, for `keepOpen`, sends a
/// comment every ``keepAliveSeconds`` until the client leaves; `reset` resets the connection once the events are
/// written, and `stall` sends nothing more.
enum EventPlayer {
    /// Seconds between the comments that keep an idle `keepOpen` stream open (and find a client that left).
    static let keepAliveSeconds: UInt64 = 15

    /// - Parameter events: Each event's bytes, and the milliseconds to wait before it.
    /// - Parameter journal: Where each event sent is journaled (``StreamMessage``, kind `event`).
    static func play(_ events: [(bytes: [UInt8], delayMs: Int)], on stream: ReplyStream, afterLast: EventScript.AfterLast,
                     journal: StreamJournal) {
        Task.detached {
            for event in events {
                if event.delayMs > 0 { try? await Task.sleep(nanoseconds: UInt64(event.delayMs) * 1_000_000) }
                guard stream.send(event.bytes) else { return }
                journal.record(.sent, .event, bytes: (event.bytes, false), size: event.bytes.count)
            }
            switch afterLast {
            case .close:
                stream.finish()
            case .keepOpen:
                repeat {
                    try? await Task.sleep(nanoseconds: keepAliveSeconds * 1_000_000_000)
                } while stream.send(Array(": keep-alive\n\n".utf8))
            case .reset:
                stream.reset()
            case .stall:
                // Nothing more: the stream stays open (a push still reaches it) until the client leaves.
                break
            }
        }
    }
}
