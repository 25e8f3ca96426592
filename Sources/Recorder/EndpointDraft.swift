import ContractModel

/// An endpoint as the recorder will write it into a contract.
struct EndpointDraft {
    var id: String
    let domain: String
    let method: String
    let template: RecordedTemplate
    /// The contract's `request` object, if it requires anything.
    let request: JSONValue?
    /// The `Content-Type` of its fixtures, unless a scenario says otherwise.
    let contentType: String
    /// The first is the default.
    var scenarios: [ScenarioDraft]

    /// The endpoint as a contract writes it.
    var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(id), "method": .string(method), "path": .string(template.path),
            "scenarios": .array(scenarios.map { $0.json(endpointContentType: contentType) }),
        ]
        if let request { fields["request"] = request }
        if contentType != "application/json" { fields["response"] = .object(["contentType": .string(contentType)]) }
        return .object(fields)
    }
}

/// A scenario as the recorder will write it: a recorded response, or the sequence that replays them.
struct ScenarioDraft: Equatable {
    var name: String
    var status: Int?
    /// The fixture path, relative to the fixtures folder.
    var body: String?
    var headers: [String: String] = [:]
    /// The body's content type.
    var contentType: String?
    var expect: Expectation = .success
    /// For the scenario that replays the recording: the names of the steps, in the order they were recorded.
    var sequence: [String]?
    /// The requests it answers (any one rule holding); empty for the default and for a step.
    var when: [RequestRule] = []
    /// How long the recorded responses took to start.
    var latency: Latency?
    /// One request that got this answer, for `mock-server verify` (secrets left out).
    var verify: VerifyExample?

    /// The scenario as a contract writes it; `contentType` only where it differs from the endpoint's.
    func json(endpointContentType: String) -> JSONValue {
        var fields: [String: JSONValue] = ["name": .string(name)]
        if !when.isEmpty { fields["when"] = when.count == 1 ? when[0].json : .array(when.map(\.json)) }
        if let sequence {
            fields["sequence"] = .array(sequence.map(JSONValue.string))
            return .object(fields)
        }
        if let status { fields["status"] = .number(Double(status)) }
        if let body { fields["body"] = .string(body) }
        if !headers.isEmpty { fields["headers"] = .object(headers.mapValues(JSONValue.string)) }
        if let contentType, body != nil, contentType != endpointContentType { fields["contentType"] = .string(contentType) }
        if let latency { fields["latency"] = .string(latency.text) }
        fields["expect"] = .string(expect.rawValue)
        if let verify { fields["verify"] = verify.json }
        return .object(fields)
    }
}
