import ContractModel

/// What the server does with one request: answer it, or misbehave, possibly after a delay.
struct Reply {
    enum Action {
        case respond(HTTPResponse)
        /// A fault; `body` is the fixture a `truncated_body` fault cuts short, after `head` (its status
        /// line and fields, prepared with the scenario).
        case fault(Fault, body: [UInt8], head: [UInt8])
    }

    var action: Action
    var delayMs = 0
    /// For `no_response`: how long the connection is held before it is closed.
    var holdMs = 0
    /// Close after answering, whatever the request asked (used after unparseable requests).
    var closeAfter = false
    /// What the journal records; `nil` for admin requests. Taken out when the request is journaled.
    var entry: JournalEntry?
    /// For the access log.
    var scenario: String?

    static func respond(_ response: HTTPResponse, entry: JournalEntry? = nil, scenario: String? = nil) -> Reply {
        Reply(action: .respond(response), entry: entry, scenario: scenario)
    }

    /// The status the reply sends, or `nil` for a fault.
    var status: Int? {
        if case .respond(let response) = action { return response.status.code }
        return nil
    }

    /// Why the server answered as it did, for the access log: copied from the entry as it is journaled
    /// (see ``JournalEntry/reason``).
    var reason: String?

    /// The fault the reply plays, as contracts name it, or `nil`.
    var faultName: String? {
        if case .fault(let fault, _, _) = action { return fault.rawValue }
        return nil
    }
}

/// JSON bodies the server writes itself: errors in the same envelope the question API uses
/// (`status`, `responseMsg`, `data`), so a client's requestErr carries the message.
enum ServerJSON {
    struct ErrorBody: Encodable {
        let status: Int
        let responseMsg: String
        var violations: [String]? = nil
        var validScenarios: [String]? = nil

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(responseMsg, forKey: .responseMsg)
            try container.encodeIfPresent(violations, forKey: .violations)
            try container.encodeIfPresent(validScenarios, forKey: .validScenarios)
            try container.encodeNil(forKey: .data)
        }

        enum CodingKeys: String, CodingKey { case status, responseMsg, violations, validScenarios, data }
    }

    static func error(
        _ status: HTTPStatus,
        _ message: String,
        violations: [String]? = nil,
        validScenarios: [String]? = nil,
        headers: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        let body = ErrorBody(status: status.code, responseMsg: message, violations: violations,
                             validScenarios: validScenarios)
        return .json(status, encode(body), headers: headers)
    }

    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own plain structs cannot fail; an empty object keeps the response valid if it ever did.
        return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }
}
