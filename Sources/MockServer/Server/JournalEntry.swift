#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// One request as the server saw and answered it.
public struct JournalEntry: Sendable, Codable, Equatable {
    /// Increases by one per request, across clears.
    public internal(set) var sequence: Int
    /// Wall-clock time of arrival; formatted only when read, so recording costs nothing extra.
    let seconds: Int
    let milliseconds: Int
    /// The request line and header fields as received (``HTTPRequest/head``), secrets included: one copy of bytes
    /// per request, where a method, a target and a list of fields cost a retain and a release each, and each field
    /// two more. Kept in the journal's own storage, reused from the entry it replaces (see ``keep(in:)``), so that
    /// the request's goes back to its connection unshared. Read, when an entry is, through ``method``, ``target``
    /// and ``shownFields``.
    private(set) var requestHead: [UInt8]
    /// Which of ``sentFields`` are secrets (see ``HeaderRedaction``).
    let secrets: HeaderRedaction.Marks
    /// The request's method.
    public var method: RequestMethod { RequestMethod(rawValue: String(decoding: requestHead[requestLine.method], as: UTF8.self)) }
    /// The header fields as sent, secrets included, in arrival order.
    var sentFields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        HeadFields.forEach(in: requestHead) { name, value in
            fields.append((String(decoding: requestHead[name], as: UTF8.self),
                           String(decoding: requestHead[value], as: UTF8.self)))
        }
        return fields
    }
    /// The header fields as the journal shows them, secrets redacted.
    var shownFields: [(name: String, value: String)] { HeaderRedaction.shown(sentFields, marks: secrets) }
    /// The request body's length in bytes, all of it (``body`` keeps the first 64 KiB).
    public let bodySize: Int
    /// The request body as journaled: its first 64 KiB, with secret fields redacted (see
    /// `--journal-secrets`); empty when there was none.
    public var body: [UInt8] { details?.body ?? [] }
    /// Whether ``body`` stops short of what was sent.
    public var bodyTruncated: Bool { details?.bodyTruncated ?? false }
    /// Whether the request was passed through to the backend (`--proxy`) rather than answered by a scenario.
    // Beside the other Bool, in the padding before the next field: a field that grows the entry costs every
    // request (as an optional reference here did).
    public internal(set) var proxied = false
    /// The contract endpoint the request matched, if any.
    public let endpoint: String?
    /// The scenario played, if any.
    public let scenario: String?
    /// The status sent, or `nil` when a fault sent none (or, for a proxied request, until the backend answered).
    public var status: Int? {
        guard arrivalStatus == nil, proxied else { return arrivalStatus }
        // Relayed: the status line of the response sent, once it was sent.
        guard responseHead.count >= 12 else { return nil }
        return Int(String(decoding: responseHead[9..<12], as: UTF8.self))
    }
    /// The status known when the request arrived.
    // A constant, as the fields known on arrival are: as a `var`, the journal's lock closures were no longer
    // specialized, and ran as generic code on every request.
    let arrivalStatus: Int?
    /// The fault played, if any.
    public var fault: Fault? { details?.fault }
    /// How the request broke its contract; empty when it conformed.
    public var violations: [String] { details?.violations ?? [] }
    /// Why the server answered as it did when that is not the scenario's doing (a fixture missing, a
    /// request it could not parse), else `nil`.
    public var reason: String? { details?.reason }
    /// The request's `X-Mock-Session`, or `nil` for the default session.
    // Kept inline: a request of a session (as parallel UI tests send) has no other detail, and would otherwise
    // cost an allocation.
    public let session: String?
    /// What chose the scenario: `header`, `override`, `state`, `server` (`--scenario`) or `first`.
    public var selectedBy: String? { selection?.rawValue }
    /// ``selectedBy`` as kept: one byte, where a string would cost a copy on the request path.
    let selection: Selection.Reason?
    /// The sequence scenario that played ``scenario`` as its step number ``scenarioStep`` (1 for the
    /// first), if any.
    public var scenarioSequence: String? { details?.scenarioSequence }
    /// The step of ``scenarioSequence`` that was played (1 for the first), if a sequence played.
    public var scenarioStep: Int? { details?.scenarioStep }
    /// When a `when` rule chose the scenario (``selectedBy`` `when`): its index in the scenario's `when` list
    /// (0 for a `when` that is one object).
    public var rule: Int? { details?.rule }
    /// Milliseconds the reply waited before it was sent (the scenario's delay and latency draws); absent
    /// when it did not wait.
    public var delayMs: Int? { details?.delayMs }
    /// For an entry of a stream's message rather than a request: which way it went and what it was (its bytes are
    /// ``body``); `nil` for a request.
    public var message: StreamMessage? { details?.message }
    /// The facts above (but the session) that a plain request, conforming and answered at once, has none of:
    /// kept out of line, so that such a request's entry is smaller to move into the journal and has fewer
    /// references to release when it is dropped.
    let details: Details?

    final class Details: Sendable {
        let body: [UInt8]
        let bodyTruncated: Bool
        let fault: Fault?
        let violations: [String]
        let reason: String?
        let scenarioSequence: String?
        let scenarioStep: Int?
        let rule: Int?
        let delayMs: Int?
        let message: StreamMessage?

        /// `nil` when every fact has its default.
        static func make(body: (bytes: [UInt8], truncated: Bool), fault: Fault?, violations: [String], reason: String?,
                         scenarioSequence: String?, scenarioStep: Int?, rule: Int?, delayMs: Int?,
                         message: StreamMessage? = nil) -> Details? {
            guard !body.bytes.isEmpty || body.truncated || fault != nil || !violations.isEmpty || reason != nil
                || scenarioSequence != nil || scenarioStep != nil || rule != nil || delayMs != nil || message != nil
            else { return nil }
            return Details(body: body, fault: fault, violations: violations, reason: reason,
                           scenarioSequence: scenarioSequence, scenarioStep: scenarioStep, rule: rule, delayMs: delayMs,
                           message: message)
        }

        private init(body: (bytes: [UInt8], truncated: Bool), fault: Fault?, violations: [String], reason: String?,
                     scenarioSequence: String?, scenarioStep: Int?, rule: Int?, delayMs: Int?, message: StreamMessage?) {
            self.message = message
            self.body = body.bytes
            bodyTruncated = body.truncated
            self.fault = fault
            self.violations = violations
            self.reason = reason
            self.scenarioSequence = scenarioSequence
            self.scenarioStep = scenarioStep
            self.rule = rule
            self.delayMs = delayMs
        }
    }

    // MARK: Filled in once the reply went to the socket (``Journal/complete(_:response:bytesSent:durationNanoseconds:)``)

    /// The response's status line and header fields as prepared (the framing fields `Content-Length`,
    /// `Date` and `Connection` are added when it is written); empty for a fault that sends no head.
    var responseHead: [UInt8] = []
    /// The body length the head announced, if it had one.
    var responseLength: Int?
    /// Bytes handed to the socket for the reply, head and body (as the access log counts them).
    public internal(set) var bytesSent: Int?
    /// From the request's first byte until its reply went to the socket (for `no_response`, until the hold
    /// began), in microseconds.
    var durationMicroseconds: Int?

    /// From the request's first byte until its reply went to the socket, in milliseconds; `nil` until then.
    public var durationMs: Double? { durationMicroseconds.map { Double($0) / 1_000 } }

    /// The response's header fields as `[name, value]` pairs, `Content-Length` included (not `Date` and
    /// `Connection`, which are added as it is written); empty before the reply was sent or for a fault that
    /// sends no head.
    public var responseHeaders: [[String]] {
        guard !responseHead.isEmpty else { return [] }
        var fields: [[String]] = []
        HeadFields.forEach(in: responseHead) { name, value in
            fields.append([String(decoding: responseHead[name], as: UTF8.self),
                           String(decoding: responseHead[value], as: UTF8.self)])
        }
        if let responseLength { fields.append(["Content-Length", String(responseLength)]) }
        return fields
    }

    /// ``body`` as text, or `nil` when it is not UTF-8.
    public var bodyText: String? { UTF8Text.decoded(body) }

    /// The request target exactly as sent.
    public var target: String { String(decoding: requestHead[requestLine.target], as: UTF8.self) }

    private var requestLine: (method: Range<Int>, target: Range<Int>) { HeadFields.requestLine(in: requestHead) }

    /// ISO 8601, UTC, with milliseconds.
    public var time: String { HTTPDate.iso8601(seconds: seconds, milliseconds: milliseconds) }

    /// Header fields in arrival order, as `[name, value]` pairs.
    public var headers: [[String]] { shownFields.map { [$0.name, $0.value] } }

    /// The first value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        shownFields.first { HTTPHeaders.equal($0.name, name) }?.value
    }

    /// An entry for a request with these parts: its head made as ``HTTPRequest/head(method:target:version:fields:)``
    /// makes it.
    init(method: RequestMethod, target: String, fields: [(name: String, value: String)],
         secrets: HeaderRedaction.Marks = .init(), bodySize: Int,
         body: (bytes: [UInt8], truncated: Bool) = ([], false), endpoint: String?, scenario: String?, status: Int?,
         fault: Fault?, violations: [String], reason: String? = nil, session: String? = nil,
         selection: Selection.Reason? = nil, scenarioSequence: String? = nil, scenarioStep: Int? = nil,
         rule: Int? = nil, delayMs: Int? = nil) {
        self.init(requestHead: HTTPRequest.head(method: method, target: target, version: .http11, fields: fields),
                  secrets: secrets, bodySize: bodySize, body: body, endpoint: endpoint, scenario: scenario,
                  status: status, fault: fault, violations: violations, reason: reason, session: session,
                  selection: selection, scenarioSequence: scenarioSequence, scenarioStep: scenarioStep,
                  rule: rule, delayMs: delayMs)
    }

    /// - Parameters:
    ///   - requestHead: The request's head as received (``HTTPRequest/head``).
    ///   - secrets: Which of its fields the journal shows redacted.
    init(requestHead: [UInt8], secrets: HeaderRedaction.Marks = .init(), bodySize: Int,
         body: (bytes: [UInt8], truncated: Bool) = ([], false), endpoint: String?, scenario: String?, status: Int?,
         fault: Fault?, violations: [String], reason: String? = nil, session: String? = nil,
         selection: Selection.Reason? = nil, scenarioSequence: String? = nil, scenarioStep: Int? = nil,
         rule: Int? = nil, delayMs: Int? = nil, message: StreamMessage? = nil) {
        (seconds, milliseconds) = POSIX.wallClock()
        sequence = 0
        self.requestHead = requestHead
        self.secrets = secrets
        self.bodySize = bodySize
        self.endpoint = endpoint
        self.scenario = scenario
        arrivalStatus = status
        self.selection = selection
        self.session = session
        details = Details.make(body: body, fault: fault, violations: violations, reason: reason,
                               scenarioSequence: scenarioSequence, scenarioStep: scenarioStep, rule: rule,
                               delayMs: delayMs, message: message)
    }

    /// Takes the storage of the request head, leaving this entry without it: see ``keep(in:)``.
    mutating func takeStorage() -> [UInt8] {
        var storage: [UInt8] = []
        swap(&storage, &requestHead)
        return storage
    }

    /// Copies the request head into `storage` (the storage of the entry this one replaced, written in place when
    /// nothing else holds it) and keeps that, handing back the one it had. So the journal keeps no reference to a
    /// request's storage, which its connection writes the next request into. Returns the head's length.
    @discardableResult
    mutating func keep(in storage: inout [UInt8]) -> Int {
        requestHead.withUnsafeBytes { storage.overwrite(with: $0) }
        swap(&storage, &requestHead)
        return requestHead.count
    }

    enum CodingKeys: String, CodingKey {
        case sequence, time, method, target, headers, bodySize, body, bodyBase64, bodyTruncated, endpoint, scenario,
             status, fault, violations, reason, session, selectedBy, scenarioSequence, scenarioStep, rule, responseHeaders,
             bytesSent, durationMs, delayMs, proxied, message
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(time, forKey: .time)
        try container.encode(method, forKey: .method)
        try container.encode(target, forKey: .target)
        try container.encode(headers, forKey: .headers)
        try container.encode(bodySize, forKey: .bodySize)
        if let text = bodyText {
            if !text.isEmpty { try container.encode(text, forKey: .body) }
        } else {
            try container.encode(Data(body).base64EncodedString(), forKey: .bodyBase64)
        }
        if bodyTruncated { try container.encode(true, forKey: .bodyTruncated) }
        try container.encodeIfPresent(endpoint, forKey: .endpoint)
        try container.encodeIfPresent(scenario, forKey: .scenario)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(fault, forKey: .fault)
        try container.encode(violations, forKey: .violations)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(session, forKey: .session)
        try container.encodeIfPresent(selectedBy, forKey: .selectedBy)
        try container.encodeIfPresent(scenarioSequence, forKey: .scenarioSequence)
        try container.encodeIfPresent(scenarioStep, forKey: .scenarioStep)
        try container.encodeIfPresent(rule, forKey: .rule)
        try container.encodeIfPresent(delayMs, forKey: .delayMs)
        try container.encodeIfPresent(message, forKey: .message)
        if proxied { try container.encode(true, forKey: .proxied) }
        if durationMicroseconds != nil { try container.encode(responseHeaders, forKey: .responseHeaders) }
        try container.encodeIfPresent(bytesSent, forKey: .bytesSent)
        try container.encodeIfPresent(durationMs, forKey: .durationMs)
    }

    /// Reads an entry as `GET /__mock/journal` writes it. Its request head is made again from the method, target
    /// and fields shown (as `HTTPRequest.head(method:target:version:fields:)` makes one): what the server
    /// wrote reads back the same, but a hand-written method with a space, or a value with spaces around it or a
    /// line break in it, does not.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(Int.self, forKey: .sequence)
        let time = try container.decode(String.self, forKey: .time)
        (seconds, milliseconds) = HTTPDate.parseISO8601(time) ?? (0, 0)
        // The fields as shown: redacted already.
        requestHead = HTTPRequest.head(
            method: try container.decode(RequestMethod.self, forKey: .method),
            target: try container.decode(String.self, forKey: .target), version: .http11,
            fields: try container.decode([[String]].self, forKey: .headers).map { ($0.first ?? "", $0.last ?? "") })
        secrets = .init()
        bodySize = try container.decode(Int.self, forKey: .bodySize)
        let body: [UInt8]
        if let text = try container.decodeIfPresent(String.self, forKey: .body) {
            body = Array(text.utf8)
        } else if let base64 = try container.decodeIfPresent(String.self, forKey: .bodyBase64) {
            body = Data(base64Encoded: base64).map(Array.init) ?? []
        } else {
            body = []
        }
        let bodyTruncated = try container.decodeIfPresent(Bool.self, forKey: .bodyTruncated) ?? false
        endpoint = try container.decodeIfPresent(String.self, forKey: .endpoint)
        scenario = try container.decodeIfPresent(String.self, forKey: .scenario)
        arrivalStatus = try container.decodeIfPresent(Int.self, forKey: .status)
        selection = try container.decodeIfPresent(String.self, forKey: .selectedBy).flatMap(Selection.Reason.init)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        details = Details.make(
            body: (body, bodyTruncated), fault: try container.decodeIfPresent(Fault.self, forKey: .fault),
            violations: try container.decode([String].self, forKey: .violations),
            reason: try container.decodeIfPresent(String.self, forKey: .reason),
            scenarioSequence: try container.decodeIfPresent(String.self, forKey: .scenarioSequence),
            scenarioStep: try container.decodeIfPresent(Int.self, forKey: .scenarioStep),
            rule: try container.decodeIfPresent(Int.self, forKey: .rule),
            delayMs: try container.decodeIfPresent(Int.self, forKey: .delayMs),
            message: try container.decodeIfPresent(StreamMessage.self, forKey: .message))
        proxied = try container.decodeIfPresent(Bool.self, forKey: .proxied) ?? false
        if let headers = try container.decodeIfPresent([[String]].self, forKey: .responseHeaders) {
            // Kept as the server keeps it: a head (after a status line) and the announced length apart.
            var kept = headers
            if let last = kept.last, last.first == "Content-Length", let length = Int(last.last ?? "") {
                responseLength = length
                kept.removeLast()
            }
            if !kept.isEmpty || responseLength != nil {
                responseHead = Array("HTTP/1.1 \(status ?? 0) -\r\n".utf8)
                    + HTTPResponseEncoder.fields(kept.map { ($0.first ?? "", $0.last ?? "") })
            }
        }
        bytesSent = try container.decodeIfPresent(Int.self, forKey: .bytesSent)
        durationMicroseconds = try container.decodeIfPresent(Double.self, forKey: .durationMs)
            .map { Int(($0 * 1_000).rounded()) }
    }

    public static func == (lhs: JournalEntry, rhs: JournalEntry) -> Bool {
        lhs.sequence == rhs.sequence && lhs.seconds == rhs.seconds && lhs.milliseconds == rhs.milliseconds
            && lhs.method == rhs.method && lhs.target == rhs.target && lhs.headers == rhs.headers
            && lhs.bodySize == rhs.bodySize && lhs.body == rhs.body && lhs.bodyTruncated == rhs.bodyTruncated
            && lhs.endpoint == rhs.endpoint && lhs.scenario == rhs.scenario
            && lhs.status == rhs.status && lhs.fault == rhs.fault && lhs.violations == rhs.violations
            && lhs.reason == rhs.reason && lhs.session == rhs.session && lhs.selection == rhs.selection
            && lhs.scenarioSequence == rhs.scenarioSequence && lhs.scenarioStep == rhs.scenarioStep && lhs.rule == rhs.rule
            && lhs.delayMs == rhs.delayMs && lhs.proxied == rhs.proxied && lhs.message == rhs.message
            && lhs.responseHeaders == rhs.responseHeaders && lhs.bytesSent == rhs.bytesSent
            && lhs.durationMicroseconds == rhs.durationMicroseconds
    }
}

extension JournalEntry: CustomReflectable {
    /// The entry as printed, dumped, shown by a debugger or in a failed test's message: its header fields as the
    /// journal shows them, never the secrets it keeps as sent.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "sequence": sequence, "time": time, "method": method, "target": target, "headers": headers,
            "bodySize": bodySize, "body": bodyText ?? "\(body.count) bytes", "endpoint": endpoint as Any,
            "scenario": scenario as Any, "status": status as Any, "fault": fault as Any, "violations": violations,
            "reason": reason as Any, "session": session as Any, "selectedBy": selectedBy as Any,
            "responseHeaders": responseHeaders, "bytesSent": bytesSent as Any, "durationMs": durationMs as Any,
            "message": message as Any,
        ], displayStyle: .struct)
    }
}
