import HTTPCore

/// What the handler journals of each request: one entry, made by one initializer on arrival, and the reply that
/// carries its sequence back for ``RequestHandler/didSend(_:for:bytes:started:)``.
extension RequestHandler {
    /// Journals `entry` (on arrival, so a request is visible while its reply is still delayed or held)
    /// and returns `reply`, which carries the entry's reason for the access log.
    // Both moved on rather than copied (a plain `return reply` copied the reply, field by field).
    // Inlined: called from many places now, it stopped being inlined by itself, and the call cost a reply's copy.
    @inline(__always)
    func journaled(_ reply: consuming Reply, _ entry: consuming JournalEntry) -> Reply {
        reply.note.reason = entry.reason
        reply.note.sequence = journal.append(entry)
        return consume reply
    }

    func journaled(_ response: HTTPResponse, _ entry: consuming JournalEntry, scenario: String? = nil) -> Reply {
        journaled(.respond(response, note: .init(source: scenario)), entry)
    }

    /// Logs the reply, and completes its journal entry with what was sent: the head (a relayed one redacted), the
    /// body's length, the bytes and the time.
    func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {
        log.write(request: request, reply: reply, bytes: bytes, started: started)
        guard let sequence = reply.note.sequence else { return }
        var head: [UInt8] = []
        var length: Int?
        switch reply.action {
        case .respond(let response):
            head = response.head
            if !response.status.forbidsBody { length = response.body.count }
        case .transport(.truncate(let response, let announced)):
            head = response.head
            length = announced
        case .stream(let response, let body):
            // A paced body: its head, and the length it announces (a journal stream has none).
            head = response.head
            length = body.length
        case .upgrade(let response, _):
            head = response.head
        case .transport, .later:
            break
        }
        // A backend's head, unlike a contract's, may carry a secret (a session's `Set-Cookie`).
        if case .relayed? = reply.note.outcome { head = redaction.redactedHead(head) }
        let duration = started.map { POSIX.monotonicNanoseconds() - $0 } ?? 0
        journal.complete(sequence, responseHead: head, responseLength: length, bytesSent: bytes,
                         durationNanoseconds: duration)
    }

    /// The journal entry of `request`, every fact known on arrival given at once.
    func entry(
        _ request: HTTPRequest,
        endpoint: String? = nil,
        selection: Selection? = nil,
        status: Int? = nil,
        fault: Fault? = nil,
        violations: [String] = [],
        reason: String? = nil,
        delayMs: Int = 0
    ) -> JournalEntry {
        // A selection knows its session; only a request refused before one was made is looked up again.
        let session = (selection?.session ?? request.headers[mockNames.session]).flatMap { session in
            session.isEmpty ? nil : String(session.prefix(SessionTable.maximumIDLength))
        }
        // Built by one initializer, with every field known on arrival a constant: a field set after it (on a
        // variable here, or in the initializer once every field had a value) had the whole entry copied and
        // the original destroyed, on every request.
        let (head, secrets) = redaction.recorded(request)
        return JournalEntry(requestHead: head, secrets: secrets, bodySize: request.body.count,
                            body: bodyRedaction.capture(request), endpoint: endpoint,
                            scenario: selection?.play.name, status: status, fault: fault, violations: violations,
                            reason: reason, session: session, selection: selection?.reason,
                            scenarioSequence: selection?.step == nil ? nil : selection?.chosen.name,
                            scenarioStep: selection?.step, rule: selection?.rule, delayMs: delayMs > 0 ? delayMs : nil)
    }
}
