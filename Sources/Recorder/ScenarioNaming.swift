/// Names a recording's distinct outcomes as the client's result mapping does (`success`, `requestErr`,
/// `serverErr`, `networkFail`), with a number from the second of a kind on: `success`, `success2`,
/// `success3`. Outcomes are ordered by status, then by when they were first recorded, so the same
/// traffic always gets the same names.
enum ScenarioNaming {
    /// The sequence that replays an endpoint's recorded outcomes in order, when it has more than one.
    static let replay = "recorded"

    /// Names for `outcomes` (distinct, in the order first recorded), avoiding `taken`.
    static func names(for outcomes: [RecordedOutcome], taken: Set<String> = []) -> [RecordedOutcome: String] {
        var used = taken
        var names: [RecordedOutcome: String] = [:]
        let ordered = outcomes.enumerated().sorted { left, right in
            left.element.status != right.element.status ? left.element.status < right.element.status
                : left.offset < right.offset
        }
        for (_, outcome) in ordered {
            let base = outcome.expectation.rawValue
            var name = base
            var counter = 2
            while used.contains(name) { name = base + "\(counter)"; counter += 1 }
            used.insert(name)
            names[outcome] = name
        }
        return names
    }

    /// `outcomes` in the order their names sort them in a contract (by status, then first recorded).
    static func ordered(_ outcomes: [RecordedOutcome]) -> [RecordedOutcome] {
        outcomes.enumerated().sorted { left, right in
            left.element.status != right.element.status ? left.element.status < right.element.status
                : left.offset < right.offset
        }.map(\.element)
    }
}
