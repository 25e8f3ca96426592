import ContractModel
import HTTPCore

/// How a scenario with `"events"` answers: a `text/event-stream` response whose events go out at their times
/// (``EventPlayer``), filled in from the request when the scenario is a template, resumed after `Last-Event-ID`.
extension RequestHandler {
    /// The stream the events go into and what starts them, or `nil` for a HEAD request; or why there is none.
    /// - Parameters:
    ///   - delayMs: How long the head waits (latency, conditions): the first event's wait counts from it.
    ///   - endpoint: The endpoint's id, and `session` the request's: where pushed events find the stream.
    /// - Parameter templates: Each event's `data` as parsed at load, for a template whose events are in the contract.
    func events(
        _ script: EventScript,
        templates: [ResponseTemplate]?,
        request: HTTPRequest,
        play: ScenarioPlay,
        parameters: [String: String],
        counter: Int,
        delayMs: Int,
        endpoint: String,
        session: String
    ) -> Result<(stream: ReplyStream, start: @Sendable () -> Void)?, ResponseBodies.Failure> {
        var events: [ServerEvent]
        switch script.source {
        case .inline(let list):
            events = list
        case .fixture(let path):
            switch bodies.fixtures.bytes(at: path) {
            case .failure(let unavailable):
                return .failure(.noFixture(reason: unavailable.reason))
            case .success(let bytes):
                guard let value = try? JSONValue.parse(bytes), case .success(let list) = ServerEvent.list(from: value) else {
                    return .failure(.template(message: "the events fixture \(path) is not a list of events"))
                }
                events = list
            }
        }
        // HEAD asks for the head alone.
        guard !request.isHead else { return .success(nil) }
        var parsed = templates
        // A reconnecting client resumes after the last event it got.
        if let last = request.headers["Last-Event-ID"], let index = events.firstIndex(where: { $0.id == last }) {
            events.removeFirst(index + 1)
            parsed?.removeFirst(index + 1)
        }
        var encoded: [(bytes: [UInt8], delayMs: Int)] = []
        for (position, event) in events.enumerated() {
            var data = event.data
            if play.isTemplate {
                switch Self.render(parsed?[position], event.data, play: play, request: request, parameters: parameters,
                                   counter: counter) {
                case .success(let text): data = text
                case .failure(let failure): return .failure(failure)
                }
            }
            encoded.append((event.encoded(data: data), event.delayMs))
        }
        let stream = ReplyStream(limit: 1 << 20)
        let journal = streamJournal(request, endpoint: endpoint, scenario: play.name, session: session)
        openStreams.add(.events(stream, journal), endpoint: endpoint, session: session)
        if delayMs > 0, !encoded.isEmpty { encoded[0].delayMs += delayMs }
        let afterLast = script.afterLast
        // Started by the caller once the request is journaled, so that its events follow it in the journal.
        return .success((stream, { [encoded] in EventPlayer.play(encoded, on: stream, afterLast: afterLast, journal: journal) }))
    }

    /// An event's `data` filled in as a template body is (path, query, header and body values): `parsed` at load, else
    /// `text` parsed now (events from a fixture).
    private static func render(_ parsed: ResponseTemplate?, _ text: String, play: ScenarioPlay, request: HTTPRequest,
                               parameters: [String: String], counter: Int) -> Result<String, ResponseBodies.Failure> {
        let template: ResponseTemplate
        if let parsed {
            template = parsed
        } else {
            do {
                template = try ResponseTemplate.parse(Array(text.utf8), context: play.templateContext)
            } catch {
                return .failure(.template(message: "an event's data is not a template: \(error)"))
            }
        }
        let input = TemplateInput(pathParameters: parameters, query: request.queryItems ?? [], headers: request.headers,
                                  body: request.body, contentType: request.headers["content-type"], counter: counter,
                                  now: POSIX.wallClock())
        return TemplateRenderer.render(template, input)
            .map { String(decoding: $0, as: UTF8.self) }
            .mapError { .template(message: "no value for \($0.placeholder) in an event's data, and no default") }
    }
}
