import HTTPCore

/// The replies of relayed requests, shared by `--proxy` and `mock-server record`: a pending reply completed
/// with the backend's response, or a 502 naming the backend and the reason.
package enum RelayReplies {
    /// What the access log names as the answer's source (``Reply/Note/source``) when no scenario relayed it.
    package static let source = "proxied"

    /// Relays `request` (its body passed on as it arrives through `body`, when given) and returns at once with a
    /// pending reply, completed from a relay thread with `note`.
    package static func relay(
        _ request: HTTPRequest,
        body: RequestBodyStream? = nil,
        to upstream: any UpstreamRelay,
        note: Reply.Note,
        delayMs: Int = 0
    ) -> Reply {
        // Behind the relay's own timeout: the relay answers first, with the reason.
        let pending = PendingReply(timeoutNanoseconds: upstream.timeoutNanoseconds + 5_000_000_000)
        let target = upstream.target
        upstream.relay(request, body: body, isWanted: { !pending.isCancelled }) { outcome in
            var final = note
            switch outcome {
            case .response(let response, let announced?):
                // A body-less stream of known length: the head announces it, and HEAD sends no body.
                let body = ReplyStream(source: PacedBody([], pieces: 1), limit: 1, interval: 0, length: announced)
                pending.complete(Reply(.stream(response, body), note: final))
            case .response(let response, nil):
                pending.complete(Reply(.respond(response), note: final))
            case .stream(let response, let body):
                // Nobody waits any more (the client left, or the wait timed out): the relay stops at its next part.
                if !pending.complete(Reply(.stream(response, body), note: final)) { body.cancel() }
            case .failure(let reason):
                final.reason = "upstream \(target): \(reason)"
                pending.complete(Reply(.respond(badGateway(target: target, reason: reason)), note: final))
            }
        }
        return Reply(.later(pending), delayMs: delayMs, note: note)
    }

    /// 502 with the server's JSON error body, naming the backend and why it gave no answer.
    package static func badGateway(target: String, reason: String) -> HTTPResponse {
        ServerJSON.error(.badGateway, "upstream \(target) gave no answer: \(reason)", upstream: target,
                         upstreamError: reason)
    }

    /// The answer to `POST /__mock/record/flush`: 200 with what was written, 500 when writing failed (the
    /// recording is kept), 404 when nothing records.
    package static func flushed(_ flush: RecordingFlush?) -> HTTPResponse {
        guard let flush else {
            return ServerJSON.error(.notFound, "nothing is being recorded: start with `mock-server record --target <url>` "
                + "or `mock-server --proxy <url> --record`")
        }
        guard flush.succeeded else {
            return ServerJSON.error(.internalServerError, flush.message)
        }
        return .json(.ok, ServerJSON.encode(FlushBody(flushed: flush.exchanges, message: flush.message)))
    }

    private struct FlushBody: Encodable {
        let flushed: Int
        let message: String
    }
}
