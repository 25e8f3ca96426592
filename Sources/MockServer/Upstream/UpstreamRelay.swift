import HTTPCore

/// Where the server sends what it does not mock (`--proxy`): requests no endpoint serves, and scenarios with
/// `"proxy": true`. The Recorder's proxy implements it; the mock layer journals and logs the requests, the relay
/// forwards them on threads of its own and answers later, so no event loop waits on the backend.
package protocol UpstreamRelay: Sendable {
    /// The backend's base URL, as 502 answers and log lines name it.
    var target: String { get }

    /// The longest a relayed request can take, in nanoseconds: connections give up a little after it.
    var timeoutNanoseconds: UInt64 { get }

    /// Whether ``relay(_:body:isWanted:completion:)`` takes a body that arrives as it is sent on (not through the TLS
    /// bridge, whose exchanges are whole).
    var streamsRequestBodies: Bool { get }

    /// Forwards `request`; calls `completion` exactly once, from another thread, with the backend's response as
    /// a proxy relays it, or why there is none.
    /// - Parameters:
    ///   - body: The request's body as it arrives, when it is passed on so (`request` then has only the head);
    ///     `nil` sends `request`'s own.
    ///   - isWanted: Asked before the request goes out: `false` once its client has left, so a queue of abandoned
    ///     requests does not hold up the others.
    func relay(_ request: HTTPRequest, body: RequestBodyStream?, isWanted: @escaping @Sendable () -> Bool,
               completion: @escaping @Sendable (RelayOutcome) -> Void)

    /// Writes what was recorded so far (`POST /__mock/record/flush`); `nil` when nothing is recorded.
    func flushRecording() -> RecordingFlush?
}

/// What came of relaying one request.
package enum RelayOutcome: Sendable {
    /// The backend's response, hop-by-hop fields removed and `Via` added; for a HEAD request, the length the
    /// backend announced for the body it did not send.
    case response(HTTPResponse, announcedLength: Int?)
    /// The backend's response head, its body following on `body` as it arrives (a large or open-ended body, relayed
    /// at the client's pace); the head has no body of its own.
    case stream(HTTPResponse, body: ReplyStream)
    /// No usable response: DNS, connection refused, timeout, connection reset, bad response.
    case failure(String)
}

/// The outcome of writing the recording.
package struct RecordingFlush: Sendable {
    package var succeeded: Bool
    /// What was written, or why nothing was (the recording is kept for a later flush).
    package var message: String
    /// How many exchanges the recording holds.
    package var exchanges: Int

    package init(succeeded: Bool, message: String, exchanges: Int) {
        self.succeeded = succeeded
        self.message = message
        self.exchanges = exchanges
    }
}
