import HTTPCore

/// Answers each request later, from the URLSession callback: the event loop never waits for the target.
final class BridgeResponder: HTTPResponder {
    let session: BridgeSession

    init(session: BridgeSession) {
        self.session = session
    }

    func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply {
        // The connection's safety net sits well behind URLSession's own (idle) timeout.
        let pending = PendingReply(timeoutNanoseconds: UInt64(session.timeout) * 3_000_000_000 + 60_000_000_000)
        session.relay(request) { reply in pending.complete(reply) }
        return Reply(.later(pending))
    }

    func reject(_ status: HTTPStatus, reason: String) -> Reply {
        .respond(HTTPResponse(status: status, headers: [("Content-Type", "text/plain")], body: Array(reason.utf8)))
    }

    func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {}
}
