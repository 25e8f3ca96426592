import Networking

/// The backend's liveness probe: `GET /healthChecker` answers `text/plain` `OK`.
public enum HealthAPI: Endpoint {
    case check

    public var path: String { "/healthChecker" }
    public var method: HTTPMethod { .get }
    public var headers: [String: String] { ["Accept": "text/plain"] }
}

/// Typed calls of ``HealthAPI``.
public struct HealthService: Sendable {
    public let client: APIClient

    public init(client: APIClient) { self.client = client }

    /// The health checker's text, normally `OK`. An empty body is `pathErr`.
    public func check(interceptors: [any RequestInterceptor] = []) async -> NetworkResult<String> {
        await client.send(HealthAPI.check, decoding: .text, interceptors: interceptors)
    }
}
