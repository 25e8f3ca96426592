import ContractModel
import HTTPCore

/// How a WebSocket scenario answers: the upgrade (RFC 6455 §4.2), then the script (``ScriptedSocket``) on the socket;
/// or, for a request that is not an upgrade the server can accept, a 400 or 426 saying why.
extension RequestHandler {
    /// - Parameter delayMs: How long the 101 waits (latency, conditions).
    func upgrade(_ request: HTTPRequest, to play: WebSocketPlay, route: Route, selection: Selection, delayMs: Int) -> Reply {
        let naming = MockHeader.naming(endpoint: route.id, scenario: selection.play.name)
        switch WebSocketHandshake.accept(request, protocols: play.subprotocols) {
        case .failure(let refusal):
            let response = ServerJSON.error(refusal.status, refusal.reason, headers: refusal.headers + naming)
            return journaled(response, entry(request, endpoint: route.id, selection: selection, status: refusal.status.code,
                                             reason: refusal.reason),
                             scenario: selection.play.name)
        case .success(let fields):
            let streamJournal = streamJournal(request, endpoint: route.id, scenario: selection.play.name, session: selection.session)
            let socket = ScriptedSocket(play, journal: streamJournal)
            let channel = WebSocketChannel(handler: socket, maxMessageBytes: webSocketLimits.maxMessageBytes,
                                           idleTimeout: UInt64(max(1, webSocketLimits.idleSeconds)) * 1_000_000_000)
            // Listed from now: a push before the 101 is written goes out right after it.
            openStreams.add(.webSocket(socket, channel), endpoint: route.id, session: selection.session)
            let response = HTTPResponse(status: HTTPStatus(101), headers: fields + play.naming)
            return journaled(Reply(.upgrade(response, channel), delayMs: delayMs, note: .init(source: selection.play.name)),
                             entry(request, endpoint: route.id, selection: selection, status: 101, delayMs: delayMs))
        }
    }
}

extension RequestHandler {
    /// What journals the messages of a stream `request` opened.
    func streamJournal(_ request: HTTPRequest, endpoint: String, scenario: String, session: String) -> StreamJournal {
        let (head, secrets) = redaction.recorded(request)
        return StreamJournal(journal: journal, redaction: bodyRedaction, requestHead: head, secrets: secrets,
                             endpoint: endpoint, scenario: scenario, session: session.isEmpty ? nil : session)
    }
}
