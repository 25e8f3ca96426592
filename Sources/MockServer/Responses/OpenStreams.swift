import HTTPCore

/// The event streams open now, by endpoint and session, so that a test (`POST /__mock/streams/{id}/send`,
/// ``MockServer/send(eventData:event:id:to:session:)``) or the dashboard can push an event into one app session's stream. A stream
/// leaves the table once its client has left or it ended.
final class OpenStreams: Sendable {
    struct Entry: Sendable {
        let number: Int
        let endpoint: String
        let session: String
        let stream: ReplyStream
        let opened: (seconds: Int, milliseconds: Int)
    }

    /// What `GET /__mock/streams` lists of one stream.
    struct Listing: Encodable {
        let number: Int
        let endpoint: String
        let session: String
        let opened: String
    }

    private struct State {
        var entries: [Entry] = []
        var next = 1
    }

    private let state = Locked(State())

    /// Adds an open stream.
    func add(_ stream: ReplyStream, endpoint: String, session: String) {
        state.withValue { state in
            state.entries.removeAll { !$0.stream.isOpen }
            state.entries.append(Entry(number: state.next, endpoint: endpoint, session: session, stream: stream,
                                       opened: POSIX.wallClock()))
            state.next += 1
        }
    }

    /// The streams still open, oldest first.
    func listing() -> [Listing] {
        state.withValue { state in
            state.entries.removeAll { !$0.stream.isOpen }
            return state.entries.map {
                Listing(number: $0.number, endpoint: $0.endpoint, session: $0.session,
                        opened: HTTPDate.iso8601(seconds: $0.opened.seconds, milliseconds: $0.opened.milliseconds))
            }
        }
    }

    /// Sends `bytes` into every open stream of `endpoint`, or only those of `session`.
    /// - Returns: How many streams took it.
    func send(_ bytes: [UInt8], endpoint: String, session: String?) -> Int {
        let targets = state.withValue { state in
            state.entries.removeAll { !$0.stream.isOpen }
            return state.entries.filter { $0.endpoint == endpoint && (session == nil || $0.session == session) }
        }
        return targets.reduce(0) { $0 + ($1.stream.send(bytes) ? 1 : 0) }
    }
}
