/// The contract format's keys in one table: which object of a contract file each key belongs to, and the
/// order a person writes them in. The parser refuses any key its object does not list (``keys(of:)``); the one
/// writer (``ContractWriter``) puts keys in the table's order, so OpenAPI import, the recorder and the export
/// write contracts the same way, and a key added here is known to both.
package enum ContractSchema {
    /// The objects of a contract file.
    package enum Object: Sendable, CaseIterable {
        /// The file itself.
        case contract
        /// An item of `resources`.
        case resource
        /// An item of `endpoints`.
        case endpoint
        /// An endpoint's `request`.
        case request
        /// A request's `body`.
        case requestBody
        /// An endpoint's `response`.
        case response
        /// An endpoint's `rateLimit`.
        case rateLimit
        /// An item of `scenarios` (a sequence too: it has fewer keys, ``sequenceKeys``).
        case scenario
        /// A scenario's `dribble`.
        case dribble
        /// A rule of a scenario's `when`: the parts of a request it reads (each a map of names to matchers).
        case when
        /// An endpoint's or scenario's `verify`: the request `mock-server verify` sends.
        case verify
        /// An item of a scenario's `events`: one server-sent event.
        case event
        /// A message a WebSocket scenario sends (`onConnect`, a reply's `send`).
        case message
        /// An item of a WebSocket scenario's `replies`.
        case reply
        /// A reply's `when`: what the client's message must be.
        case messageTest
        /// A WebSocket scenario's `close`.
        case close
    }

    /// Every key of the format, in the order it is written wherever it occurs, with the objects it belongs to.
    package static let table: [(key: String, in: Set<Object>)] = [
        ("domain", [.contract]),
        ("id", [.resource, .endpoint, .event]),
        ("event", [.event]),
        ("data", [.event]),
        ("retry", [.event]),
        ("text", [.message, .messageTest]),
        ("json", [.message, .messageTest]),
        ("binary", [.message]),
        ("name", [.scenario]),
        ("when", [.scenario, .reply]),
        ("method", [.endpoint]),
        ("path", [.resource, .endpoint]),
        ("websocket", [.endpoint]),
        ("subprotocols", [.endpoint]),
        ("idField", [.resource]),
        ("idType", [.resource]),
        ("type", [.requestBody]),
        ("fields", [.resource, .requestBody]),
        ("seed", [.resource]),
        ("shape", [.resource]),
        ("maxItems", [.resource]),
        ("pathParams", [.request, .when, .verify]),
        ("query", [.request, .when, .verify]),
        ("cookies", [.when]),
        ("proxy", [.scenario]),
        ("status", [.scenario]),
        ("fault", [.scenario]),
        ("sequence", [.scenario]),
        ("afterLast", [.scenario]),
        ("body", [.request, .scenario, .when, .verify]),
        ("events", [.scenario]),
        ("onConnect", [.scenario]),
        ("replies", [.scenario]),
        ("send", [.reply]),
        ("echo", [.scenario]),
        ("close", [.scenario]),
        ("code", [.close]),
        ("reason", [.close]),
        ("afterMessages", [.close]),
        ("afterMs", [.close]),
        ("fallback", [.scenario]),
        ("template", [.scenario]),
        ("contentType", [.response, .scenario]),
        ("headers", [.request, .scenario, .when, .verify]),
        ("auth", [.resource, .request]),
        ("delayMs", [.scenario, .event, .message]),
        ("latency", [.scenario]),
        ("bandwidth", [.scenario]),
        ("dribble", [.scenario]),
        ("pieces", [.dribble]),
        ("overMs", [.dribble]),
        ("chunked", [.dribble]),
        ("holdMs", [.scenario]),
        ("setState", [.scenario]),
        ("expect", [.scenario]),
        ("verifyStatus", [.scenario]),
        ("verify", [.endpoint, .scenario]),
        ("limit", [.rateLimit]),
        ("windowSeconds", [.rateLimit]),
        ("per", [.rateLimit]),
        ("retryAfter", [.rateLimit]),
        ("description", [.contract, .resource, .endpoint, .scenario]),
        ("states", [.contract]),
        ("rateLimit", [.endpoint]),
        ("resources", [.contract]),
        ("request", [.endpoint]),
        ("response", [.endpoint]),
        ("whenState", [.endpoint]),
        ("scenarios", [.resource, .endpoint]),
        ("endpoints", [.contract]),
    ]

    /// The keys `object` may have.
    package static func keys(of object: Object) -> Set<String> {
        Set(table.filter { $0.in.contains(object) }.map(\.key))
    }

    /// The keys a sequence may have; everything else belongs on the scenarios it plays.
    package static let sequenceKeys: Set<String> = ["name", "sequence", "afterLast", "description", "when"]

    /// What a scenario that passes through (`"proxy": true`) cannot have: the backend's answer decides them.
    package static let answerKeys = [
        "status", "fault", "body", "fallback", "template", "headers", "contentType", "holdMs", "bandwidth", "dribble",
    ]

    /// Keys whose values map names to values (parameter names, header names, field names, states): their
    /// members are sorted by name, since a name there is not a key of the format.
    package static let nameMaps: Set<String> = ["pathParams", "query", "headers", "fields", "whenState", "cookies"]

    /// The order of every key, as the writer puts them.
    package static let writingOrder: [String] = table.map(\.key)
}
