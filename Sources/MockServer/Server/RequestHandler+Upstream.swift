import HTTPCore

/// Requests the handler passes on to the backend (`--proxy`, `"proxy": true`, `--proxy-fallback`).
extension RequestHandler {
    /// Passes `request` through to the backend: journaled now as proxied, answered later from a relay thread
    /// (the journal shows the status once the response is sent).
    func proxied(
        _ request: HTTPRequest,
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
                          reason: "proxied to \(upstream.target)" + (why.map { ": " + $0 } ?? ""), delayMs: delayMs)
        entry.proxied = true
        var note = Reply.Note(source: selection?.play.name ?? RelayReplies.source, outcome: .relayed,
                              reason: entry.reason)
        note.sequence = journal.append(entry)
        return RelayReplies.relay(MockHeader.withoutMockFields(request), to: upstream, note: note, delayMs: delayMs)
    }
}
