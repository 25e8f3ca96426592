import ContractModel
import HTTPCore

/// One scenario as the server plays it, prepared once at start-up and shared by reference, so that
/// playing it copies and encodes nothing: its response head (status line and every field but the
/// framing ones, with and without `Content-Type`), or its fault.
final class ScenarioPlay: Sendable {
    /// Unique among every scenario this process prepares, reloads included: names its parsed templates.
    let serial = ScenarioPlay.nextSerial()
    let name: String
    /// The fixture path template, or `nil` for an empty body.
    let fixture: String?
    /// The fixture served when the one ``fixture`` names is missing.
    let fallback: String?
    /// Whether the fixture is a response template.
    let isTemplate: Bool
    /// Whether the fixture's path (or the fallback's) has `{placeholders}` to fill in per request.
    let hasPathPlaceholders: Bool
    /// What a template or a fixture path of this scenario may read (the endpoint's parameters and their
    /// types); empty for a scenario that reads nothing from the request.
    let templateContext: ResponseTemplate.Context
    let delayMs: Int
    /// A wait drawn per request on top of ``delayMs``.
    let latency: Latency?
    /// The body's pace, if the scenario sets one.
    let bandwidth: Bandwidth?
    let dribble: Dribble?
    /// The state the domain moves to when this scenario plays.
    let setState: String?
    /// Whether it has a `when` (its rules are compiled with the route's, ``Route/ruleSets``).
    let hasRules: Bool
    /// `X-Mock-Endpoint` and `X-Mock-Scenario` as a head writes them, for answers whose head is made per request (a
    /// resource's).
    let namingFields: [UInt8]
    let action: Action

    /// Whether playing it changes a session: a sequence moves on, a state is set, a template's counter counts.
    var changesState: Bool {
        if case .sequence = action { return true }
        return isTemplate || setState != nil
    }

    enum Action: Sendable {
        /// An ordinary response, its head encoded ahead of time.
        case respond(status: HTTPStatus, headWithBody: [UInt8], headWithoutBody: [UInt8])
        /// A fault; `head` is what a `truncated_body` sends before cutting the fixture short.
        case fault(Fault, head: [UInt8], holdMs: Int)
        /// Other scenarios in turn, one per request; ``ScenarioStore`` picks the step, which is never a
        /// sequence itself.
        case sequence([ScenarioPlay], ScenarioSequence)
        /// Passes the request through to the backend given with `--proxy`.
        case proxy
        /// Server-sent events (``EventsPlay``): one reference, so the other cases' plays copy no larger an action.
        case events(EventsPlay)
        /// A WebSocket script (``WebSocketPlay``), played after the upgrade.
        case webSocket(WebSocketPlay)
    }

    /// A sequence of `steps`, the endpoint's ordinary scenarios it names.
    init(sequence scenario: Scenario, of endpoint: ContractEndpoint, steps: [ScenarioPlay]) {
        name = scenario.name
        fixture = nil
        fallback = nil
        isTemplate = false
        hasPathPlaceholders = false
        templateContext = ResponseTemplate.Context(isJSON: false)
        delayMs = 0
        latency = nil
        bandwidth = nil
        dribble = nil
        setState = nil
        hasRules = !scenario.when.isEmpty
        namingFields = []
        action = .sequence(steps, scenario.sequence ?? ScenarioSequence(steps: [], afterLast: .repeatLast))
    }

    init(_ scenario: Scenario, of endpoint: ContractEndpoint) {
        name = scenario.name
        fixture = scenario.body
        fallback = scenario.fallback
        isTemplate = scenario.isTemplate
        hasPathPlaceholders = [scenario.body, scenario.fallback].contains { $0?.utf8.contains(UInt8(ascii: "{")) ?? false }
        // Built only where a request's values are read: a thousand static scenarios start sooner.
        templateContext = isTemplate || hasPathPlaceholders ? ResponseTemplate.Context(scenario, of: endpoint)
            : ResponseTemplate.Context(isJSON: false)
        delayMs = scenario.delayMs
        latency = scenario.latency
        bandwidth = scenario.bandwidth
        dribble = scenario.dribble
        setState = scenario.setState
        hasRules = !scenario.when.isEmpty
        let contentType = ("Content-Type", scenario.contentType ?? endpoint.contentType)
        let names = MockHeader.naming(endpoint: endpoint.id, scenario: scenario.name)
        namingFields = HTTPResponseEncoder.fields(names)
        if scenario.proxy {
            action = .proxy
            return
        }
        if let fault = scenario.fault {
            let head = HTTPResponseEncoder.statusAndFields(.ok, [contentType, Self.noStore] + names)
            action = .fault(fault, head: head, holdMs: scenario.holdMs)
            return
        }
        if let script = scenario.webSocket {
            action = .webSocket(WebSocketPlay(script, subprotocols: endpoint.subprotocols, naming: names))
            return
        }
        let status = HTTPStatus(scenario.status ?? 200)
        if let script = scenario.events {
            // The stream's own media type; a scenario's Cache-Control replaces the default one.
            let own = scenario.headers.filter { $0.key.lowercased() != "content-type" }.sorted { $0.key < $1.key }
                .map { (name: $0.key, value: $0.value) }
            let cache = own.contains { $0.name.lowercased() == "cache-control" } ? [] : [Self.noStore]
            let fields = [("Content-Type", "text/event-stream; charset=utf-8")] + cache + [("X-Accel-Buffering", "no")]
                + own + names
            var templates: [ResponseTemplate]?
            if scenario.isTemplate, case .inline(let events) = script.source {
                let context = templateContext
                templates = try? events.map { event throws(ResponseTemplate.Problem) in
                    try ResponseTemplate.parse(Array(event.data.utf8), context: context)
                }
            }
            action = .events(EventsPlay(status: status, head: HTTPResponseEncoder.statusAndFields(status, fields),
                                        script: script, templates: templates))
            return
        }
        let given = Set(scenario.headers.keys.map { $0.lowercased() })
        var fields = scenario.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        // URLCache and browsers must never replay a mock answer the next scenario would change.
        if !given.contains("cache-control") { fields.append(Self.noStore) }
        if status.code == 401 && !given.contains("www-authenticate") { fields.append(MockHeader.bearerChallenge) }
        fields += names
        action = .respond(status: status, headWithBody: HTTPResponseEncoder.statusAndFields(status, [contentType] + fields),
                          headWithoutBody: HTTPResponseEncoder.statusAndFields(status, fields))
    }

    private static let noStore = (name: "Cache-Control", value: "no-store")

    private static let serials = Locked(0)

    private static func nextSerial() -> Int {
        serials.withValue { serial in
            serial += 1
            return serial
        }
    }
}

extension Fault {
    /// What the fault does on the wire; `fixture` is the body a `truncated_body` cuts short.
    /// - Parameters:
    ///   - head: The status line and fields a `truncated_body` sends.
    func transport(head: [UInt8], holdMs: Int, fixture: [UInt8]) -> TransportAction {
        switch self {
        case .connectionReset:
            return .reset
        case .emptyResponse:
            return .close
        case .malformedResponse:
            return .sendThenClose(Array("HELLO GARBAGE \u{1}\u{2}\r\nthis is not HTTP\r\n\r\n".utf8))
        case .truncatedBody:
            // Half the fixture, under a length that promises at least twice as much.
            let response = HTTPResponse(status: .ok, head: head, body: Array(fixture.prefix(fixture.count / 2)))
            return .truncate(response, announcedLength: max(fixture.count, 64) * 2)
        case .noResponse:
            return .hold(milliseconds: holdMs)
        }
    }
}

/// What a scenario with `"events"` plays: its response head encoded ahead of time, its script, and for a template
/// whose events are in the contract each event's `data` parsed ahead of time (`nil`: parsed when played).
final class EventsPlay: Sendable {
    let status: HTTPStatus
    let head: [UInt8]
    let script: EventScript
    let templates: [ResponseTemplate]?

    init(status: HTTPStatus, head: [UInt8], script: EventScript, templates: [ResponseTemplate]?) {
        self.status = status
        self.head = head
        self.script = script
        self.templates = templates
    }
}
