#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import MockProtocol

/// Tags every request with a mock-server session, and optionally a scenario, so that tests running at
/// the same time against one mock server never see each other's scenario choices, domain states,
/// sequence positions or counters.
///
/// ```swift
/// let session = MockSession()                      // a fresh, unique id
/// let client = APIClient(environment: .local(port: 8080), interceptors: [session])
/// // Only this session's requests see the override:
/// // PUT /__mock/scenarios/productList?session=\(session.id) {"scenario": "serverErr"}
/// let failing = await products.list(page: 1, itemsPerPage: 20, interceptors: [session.playing("serverErr")])
/// ```
public struct MockSession: RequestInterceptor {
    /// The request header that names the session (`X-Mock-Session`).
    public static let sessionHeader = MockHeader.session
    /// The request header that names the scenario to play (`X-Mock-Scenario`).
    public static let scenarioHeader = MockHeader.scenario

    /// The session id sent with every request: at most `MockHeader.maximumSessionLength` bytes.
    public let id: String
    /// The scenario every request asks for, if any.
    public let scenario: String?

    /// - Parameters:
    ///   - id: The session's id; a new UUID by default.
    ///   - scenario: A scenario each request asks for; `nil` leaves the choice to the server.
    public init(id: String = UUID().uuidString, scenario: String? = nil) {
        self.id = id
        self.scenario = scenario
    }

    /// The same session, with every request asking for `scenario`.
    public func playing(_ scenario: String) -> MockSession {
        MockSession(id: id, scenario: scenario)
    }

    /// Sets `X-Mock-Session`, and `X-Mock-Scenario` when ``scenario`` is set.
    public func adapt(_ request: URLRequest) async throws -> URLRequest {
        var request = request
        request.setValue(id, forHTTPHeaderField: Self.sessionHeader)
        if let scenario { request.setValue(scenario, forHTTPHeaderField: Self.scenarioHeader) }
        return request
    }
}
