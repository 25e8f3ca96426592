import Networking

/// The backend's liveness probe: `GET /healthChecker` answers `text/plain` `OK`.
///
/// Every case answers text, so the enum declares its response once: `client.send(HealthAPI.check)` is a
/// `NetworkResult<String>`.
public enum HealthAPI: TypedEndpoint {
    /// `GET /healthChecker`
    case check

    /// `/healthChecker`
    public var path: String { "/healthChecker" }
    /// `GET`
    public var method: HTTPMethod { .get }
    /// Asks for `text/plain`.
    public var headers: [String: String] { ["Accept": "text/plain"] }
    /// A non-empty UTF-8 text body; an empty one is a `pathErr`.
    public var decoding: TextResponse { .text }
}

/// Typed calls of ``HealthAPI``.
public struct HealthService: Sendable {
    /// The client every call goes through.
    public let client: APIClient

    /// - Parameter client: The client every call goes through.
    public init(client: APIClient) { self.client = client }

    /// The health checker's text, normally `OK`. An empty body is `pathErr`.
    public func check(interceptors: [any RequestInterceptor] = []) async -> NetworkResult<String> {
        await client.send(HealthAPI.check, interceptors: interceptors)
    }
}
