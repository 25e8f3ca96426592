import ContractModel

/// Judges a backend's answer against a scenario's expectation: the status (class or exact), the media type, the
/// header fields the scenario names (by presence), and the JSON body's shape (``ShapeComparison``). Pure.
enum VerifyJudge {
    /// - Parameters:
    ///   - method: The request's: the answer to HEAD has no body to compare.
    ///   - strict: Keys only the answer has, and `null` where the fixture has a value, are drift rather than notes.
    static func judge(_ expectation: VerifyExpectation, status: Int, headers: [(name: String, value: String)],
                      body: [UInt8], method: String = "GET", strict: Bool) -> (verdict: VerifyResult.Verdict, notes: [String]) {
        var drift: [String] = []
        var notes: [String] = []
        guard expectation.accepts(status: status) else {
            return (.drift(["status \(status), expected \(expectation.statusText)"]), [])
        }
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        if let mediaType = expectation.mediaType {
            let found = header("Content-Type").map(VerifyPlanner.mediaType)
            if found != mediaType { drift.append("header Content-Type: \(found ?? "missing"), expected \(mediaType)") }
        }
        for name in expectation.headerNames where name.lowercased() != "content-type" && header(name) == nil {
            drift.append("header \(name): missing")
        }
        // HEAD, 204 and 304 carry no body to compare.
        if let shape = expectation.shape, method != "HEAD", status != 204, status != 304 {
            if let answer = try? JSONValue.parse(body) {
                let (changed, extra) = ShapeComparison.compare(fixture: shape, backend: answer)
                // A null where the fixture has a value: a field that may be absent, noted unless strict.
                let nulls = changed.filter { $0.backend == "null" }
                drift += changed.filter { $0.backend != "null" }.map(\.description)
                let loose = extra + nulls
                if strict { drift += loose.map(\.description) } else { notes += loose.map(\.description) }
            } else {
                drift.append("body: not JSON (\(body.count) bytes), expected JSON shaped like the fixture")
            }
        }
        return (drift.isEmpty ? .verified : .drift(drift), notes)
    }
}
