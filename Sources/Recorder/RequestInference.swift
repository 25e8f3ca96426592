import ContractModel

/// What a contract requires of an endpoint's requests, from those recorded: its path parameters' types,
/// each query parameter and body field seen with its type (optional unless every request had it), bearer
/// auth when the planner found it (``RecordingPlanner``). A body is declared only when every request sent a
/// JSON object, or every one a form; values are never written, only types.
enum RequestInference {
    /// The endpoint's `request` object, or `nil` when it requires nothing.
    static func request(template: RecordedTemplate, exchanges: [NormalizedExchange], bearer: Bool) -> JSONValue? {
        var request: [String: JSONValue] = [:]
        let parameters = template.parameters
        if !parameters.isEmpty {
            request["pathParams"] = .object(Dictionary(uniqueKeysWithValues: parameters.map {
                ($0.name, JSONValue.string($0.kind.declaration))
            }))
        }
        let queryNames = Set(exchanges.flatMap { $0.query.map(\.name) })
        if !queryNames.isEmpty {
            request["query"] = types(queryNames) { name in
                FieldTypeInference.text(exchanges.map { exchange in exchange.query.first { $0.name == name }?.value })
            }
        }
        if bearer { request["auth"] = .string("bearer") }
        if let body = body(exchanges) { request["body"] = body }
        return request.isEmpty ? nil : .object(request)
    }

    private static func body(_ exchanges: [NormalizedExchange]) -> JSONValue? {
        let objects = exchanges.compactMap { if case .json(let members) = $0.requestBody { members } else { nil } }
        if !exchanges.isEmpty && objects.count == exchanges.count {
            let names = Set(objects.flatMap(\.keys))
            return .object(["type": .string("json"), "fields": types(names) { name in
                FieldTypeInference.json(objects.map { $0[name] })
            }])
        }
        let forms = exchanges.compactMap { if case .form(let items) = $0.requestBody { items } else { nil } }
        if !exchanges.isEmpty && forms.count == exchanges.count {
            let names = Set(forms.flatMap { $0.map(\.name) })
            return .object(["type": .string("form"), "fields": types(names) { name in
                FieldTypeInference.text(forms.map { items in items.first { $0.name == name }?.value })
            }])
        }
        return nil
    }

    private static func types(_ names: Set<String>, type: (String) -> FieldType) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: names.map { ($0, JSONValue.string(type($0).description)) }))
    }
}
