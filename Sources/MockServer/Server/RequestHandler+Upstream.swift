import HTTPCore
import MockProtocol

/// Requests the handler passes on to the backend (`--proxy`, `"proxy": true`, `--proxy-fallback`).
extension RequestHandler {
    /// Passes `request` through to the backend: journaled now as proxied, answered later from a relay thread
    /// (the journal shows the status once the response is sent).
    func proxied(
        _ request: HTTPRequest,
        body: RequestBodyStream? = nil,
        via upstream: any UpstreamRelay,
        endpoint: String? = nil,
        selection: Selection? = nil,
        delayMs: Int = 0,
        why: String? = nil
    ) -> Reply {
        if let refusal = adminAccess.hostRefusal(of: request, for: "the proxy to \(upstream.target)") {
            let reason = "not relayed: Host \(request.headers["Host"] ?? "(none)") does not name this machine"
            return journaled(refusal, entry(request, endpoint: endpoint, selection: selection, status: 403, reason: reason))
        }
        var entry = entry(request, endpoint: endpoint, selection: selection,
                          reason: why.map { proxiedReason + ": " + $0 } ?? proxiedReason, delayMs: delayMs)
        entry.proxied = true
        var note = Reply.Note(source: selection?.play.name ?? RelayReplies.source, outcome: .relayed,
                              reason: entry.reason)
        note.sequence = journal.append(entry)
        return RelayReplies.relay(MockHeader.withoutMockFields(request), body: body, to: upstream, note: note,
                                  delayMs: delayMs)
    }

    /// Only a backend takes a body as it arrives (not through the TLS bridge).
    var passesBodiesOn: Bool { upstream?.streamsRequestBodies == true }

    /// A request whose body is long or open-ended, from its head: passed on to the backend with its body streaming
    /// as it arrives, when no endpoint serves it (`--proxy`) or none takes its method (`--proxy-fallback`); `nil`
    /// (read the body whole, then answer as usual) for everything else, which may need the body to be answered.
    func respond(toHead request: HTTPRequest, body: RequestBodyStream, peerIsLoopback: Bool) -> Reply? {
        guard let upstream, upstream.streamsRequestBodies, !request.isAsteriskForm else { return nil }
        let router = contracts.currentChecked().router
        let method = request.method
        var match: Router.Match?
        _ = PathSegments.with(pathOf: request) { segments in
            if let first = segments.first, PathSegments.equal(first, AdminPath.segment) { return }
            match = router.match(method: method, segments: segments)
        }
        let streamed = "its body streamed on as it arrived"
        switch match {
        case .notFound?:
            return proxied(request, body: body, via: upstream, why: streamed)
        case .methodNotAllowed? where fallback != nil && method != .options:
            let why = "no endpoint takes \(method) \(request.path); " + streamed
            return proxied(request, body: body, via: upstream, why: why)
        default:
            return nil
        }
    }
}
