import ContractModel

/// What `mock-server verify` does for one scenario of one endpoint: the request it sends and what the answer must
/// be, or why it sends none.
struct VerifyCase: Sendable {
    enum Plan: Sendable {
        case send(VerifyRequest, VerifyExpectation)
        /// Not verified, and why (never skipped without a word); `routine` when no backend could be asked for it
        /// (a fault, a malformed answer, a sequence, a scenario no known request produces): the text report
        /// sums those up per endpoint.
        case skip(String, routine: Bool = false)
    }

    /// The contract file, as the report groups cases.
    let file: String
    let endpoint: String
    let scenario: String
    let method: String
    /// The endpoint's path template, for the report when no request was built.
    let path: String
    let plan: Plan

    /// `GET /v2/books?genre=tech`: the request line's target when one was built, else the template.
    var shownTarget: String {
        if case .send(let request, _) = plan { return request.target }
        return path
    }
}

/// The request sent: its header values may be credentials, so only ``method`` and ``target`` are ever shown.
struct VerifyRequest: Sendable {
    let method: String
    /// Path and query, percent-encoded, below the target's base path.
    let target: String
    let headers: [(name: String, value: String)]
    let body: [UInt8]
}

/// What the backend's answer must be for its scenario to hold.
struct VerifyExpectation: Sendable {
    /// The status class comes from this (2xx for `success`, 4xx for `requestErr`, 5xx for `serverErr`).
    let expect: Expectation
    /// With `"verifyStatus": "exact"`, the status itself.
    let exactStatus: Int?
    /// The media type the scenario serves (`application/json`), compared without parameters.
    let mediaType: String?
    /// Header fields the scenario names, which the answer must have.
    let headerNames: [String]
    /// The fixture's JSON shape, when its body is JSON.
    let shape: JSONValue?

    /// Whether `status` is what the scenario expects.
    func accepts(status: Int) -> Bool {
        if let exactStatus { return status == exactStatus }
        switch expect {
        case .success, .pathErr: return (200...299).contains(status)
        case .requestErr: return (400...499).contains(status)
        case .serverErr: return (500...599).contains(status)
        // Never planned (``VerifyPlanner`` skips them): no status is an answer that did not come.
        case .networkFail: return false
        }
    }

    /// `2xx (success)` or `404`, for the report.
    var statusText: String {
        if let exactStatus { return "\(exactStatus)" }
        switch expect {
        case .success, .pathErr: return "2xx (success)"
        case .requestErr: return "4xx (requestErr)"
        case .serverErr: return "5xx (serverErr)"
        case .networkFail: return "no answer"
        }
    }
}
