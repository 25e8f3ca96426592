import HTTPCore

/// Answers each request later, from the URLSession callback: the event loop never waits for the target.
final class BridgeResponder: HTTPResponder {
    let session: BridgeSession
    /// What ``BridgeFailure/tokenField`` must carry.
    let token: String

    init(session: BridgeSession, token: String) {
        self.session = session
        self.token = token
    }

    func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply {
        guard request.headers[BridgeFailure.tokenField] == token else {
            return reject(.forbidden, reason: "mock-server-tls relays only for the mock-server that started it")
        }
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
