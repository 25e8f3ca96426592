import HTTPCore

/// The header fields the mock server reads and writes beyond HTTP's own, named in one place.
public enum MockHeader {
    /// Request: the scenario to play for this request only. Response: the scenario that answered.
    public static let scenario = "X-Mock-Scenario"
    /// Response: the contract endpoint that answered.
    public static let endpoint = "X-Mock-Endpoint"
    /// Request: the session whose state (scenario overrides, domain states, sequence positions, counters)
    /// the request reads and changes; requests without it share the default session.
    public static let session = "X-Mock-Session"
    /// Request: the condition profile (`3g`, `train`, ...) laid over this request instead of the active one.
    public static let conditions = "X-Mock-Conditions"
    /// ``scenario``, ``session`` and ``conditions`` prepared for the look-ups every request makes. Made once
    /// per ``RequestHandler`` and kept there: as static constants, each use went through `swift_once`, the three
    /// about 30 instructions per request (Tests/Benchmarks/instructions.sh).
    struct PreparedNames: Sendable {
        let scenario = HTTPHeaders.Name(MockHeader.scenario)
        let session = HTTPHeaders.Name(MockHeader.session)
        let conditions = HTTPHeaders.Name(MockHeader.conditions)
    }
    /// Request: the admin token, when the admin API demands one.
    public static let adminToken = "X-Mock-Admin-Token"

    /// The fields every response for an endpoint carries, naming what answered.
    static func naming(endpoint: String, scenario: String) -> [(name: String, value: String)] {
        [(Self.endpoint, endpoint), (Self.scenario, scenario)]
    }

    /// `request` without the fields that steer the mock (`X-Mock-…`): what a backend is sent when the mock
    /// passes a request through. They are meant for the mock, and a backend that is itself a mock server would
    /// act on them.
    static func withoutMockFields(_ request: HTTPRequest) -> HTTPRequest {
        guard request.headers.contains(where: { $0.name.utf8.count > 7 && $0.name.lowercased().hasPrefix("x-mock-") }) else {
            return request
        }
        return request.withoutFields { $0.name.lowercased().hasPrefix("x-mock-") }
    }

    /// The challenge of a 401: `Bearer`, which URLSession can answer; `Basic` would hang it on Linux.
    static let bearerChallenge = (name: "WWW-Authenticate", value: "Bearer")
}
