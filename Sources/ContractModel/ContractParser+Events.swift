extension ContractParser {
    // MARK: - events

    /// A scenario's `"events"` (``EventScript``): a list of events, or the fixture file that holds one; and its
    /// `"afterLast"`, `close` (the default), `keepOpen`, `reset` or `stall`.
    mutating func parseEvents(_ value: JSONValue?, afterLast: JSONValue?, at path: String) -> EventScript? {
        guard let value else { return nil }
        var end = EventScript.AfterLast.close
        if let text = optionalString(afterLast, at: path + ".afterLast") {
            if let parsed = EventScript.AfterLast(rawValue: text) {
                end = parsed
            } else {
                report(path + ".afterLast", "\"\(text)\" is not one of "
                    + EventScript.AfterLast.allCases.map(\.rawValue).joined(separator: ", ") + " (for events)")
            }
        }
        switch value {
        case .string(let file):
            guard FixturePath.staysInside(file), FixturePath.placeholders(in: file).isEmpty else {
                report(path + ".events", "\"\(file)\" is not a fixture path inside the fixtures folder, without placeholders")
                return nil
            }
            return EventScript(source: .fixture(file), afterLast: end)
        case .array:
            switch ServerEvent.list(from: value) {
            case .success(let events):
                return EventScript(source: .inline(events), afterLast: end)
            case .failure(let problem):
                report(path + ".events" + problem.at, problem.reason)
                return nil
            }
        default:
            report(path + ".events", "expected a list of events or the fixture file that holds one, found \(value.typeName)")
            return nil
        }
    }
}
