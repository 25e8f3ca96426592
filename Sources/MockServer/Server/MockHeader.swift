import HTTPCore
import MockProtocol

/// The mock protocol's header names (`MockProtocol.MockHeader`), as `MockServer` has always offered them.
public typealias MockHeader = MockProtocol.MockHeader

/// The mock protocol's faults (`MockProtocol.Fault`), as the journal shows them.
public typealias Fault = MockProtocol.Fault

/// What the server does with them.
extension MockHeader {
    /// ``scenario``, ``session`` and ``conditions`` prepared for the look-ups every request makes. Made once
    /// per ``RequestHandler`` and kept there: as static constants, each use went through `swift_once`.
    struct PreparedNames: Sendable {
        let scenario = HTTPHeaders.Name(MockHeader.scenario)
        let session = HTTPHeaders.Name(MockHeader.session)
        let conditions = HTTPHeaders.Name(MockHeader.conditions)
    }

    /// The fields every response for an endpoint carries, naming what answered (no scenario when none applied).
    static func naming(endpoint: String, scenario: String?) -> [(name: String, value: String)] {
        guard let scenario else { return [(Self.endpoint, endpoint)] }
        return [(Self.endpoint, endpoint), (Self.scenario, scenario)]
    }

    /// `request` without the fields that steer the mock (`X-Mock-…`): what a backend is sent when the mock
    /// passes a request through. They are meant for the mock, and a backend that is itself a mock server would
    /// act on them.
    static func withoutMockFields(_ request: HTTPRequest) -> HTTPRequest {
        guard request.headers.contains(where: { isMockField($0.name) }) else { return request }
        return request.withoutFields { isMockField($0.name) }
    }

    /// The challenge of a 401: `Bearer`, which URLSession can answer; `Basic` would hang it on Linux.
    static let bearerChallenge = (name: "WWW-Authenticate", value: "Bearer")
}
