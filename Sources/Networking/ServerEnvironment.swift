import Foundation

/// The one place that decides which server an ``APIClient`` talks to.
///
/// ```swift
/// let client = APIClient(environment: .local(port: 8080))          // swift run mock-server
/// let live = APIClient(environment: ServerEnvironment(name: "production",
///                                                     baseURL: productionURL))
/// ```
public struct ServerEnvironment: Sendable, Hashable {
    /// A short name for logs, such as `production` or `local`.
    public let name: String
    /// The scheme, host, port and optional path prefix every endpoint path is appended to.
    public let baseURL: URL

    /// Creates an environment from a base URL.
    public init(name: String, baseURL: URL) {
        self.name = name
        self.baseURL = baseURL
    }

    /// The mock server on this machine: `http://127.0.0.1:<port>`.
    ///
    /// A simulator reaches the Mac's loopback directly; a device needs the Mac's LAN address and a
    /// server started with `--host 0.0.0.0`.
    public static func local(host: String = "127.0.0.1", port: Int = 8080) -> ServerEnvironment {
        var components = URLComponents()
        components.scheme = "http"
        components.host = host
        components.port = port
        // A host with characters URLComponents rejects yields nil; fall back to loopback so that
        // the builder reports the problem when a request is made instead of crashing here.
        let url = components.url ?? URL(fileURLWithPath: "/invalid-host")
        return ServerEnvironment(name: "local", baseURL: url)
    }
}
