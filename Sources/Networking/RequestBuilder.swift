#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Turns an ``Endpoint`` into a `URLRequest` for one ``ServerEnvironment``.
public struct RequestBuilder: Sendable {
    /// The server every path is resolved against.
    public let environment: ServerEnvironment
    /// The timeout used when an endpoint does not set one.
    public let defaultTimeout: TimeInterval

    /// - Parameters:
    ///   - environment: The server every path is resolved against.
    ///   - defaultTimeout: Seconds a request may take when its endpoint sets no timeout.
    public init(environment: ServerEnvironment, defaultTimeout: TimeInterval = 30) {
        self.environment = environment
        self.defaultTimeout = defaultTimeout
    }

    /// Builds the request: URL from base URL and path, method, headers, then the body strategy.
    /// - Throws: ``RequestBuildError`` for a URL that is not http(s), a body on GET or HEAD, or a body
    ///   that cannot be encoded.
    public func makeRequest(for endpoint: some Endpoint) throws -> URLRequest {
        var request = URLRequest(url: try makeURL(path: endpoint.path))
        request.httpMethod = endpoint.method.rawValue
        request.timeoutInterval = Self.effectiveTimeout(timeout(for: endpoint))
        for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        try endpoint.body.apply(to: &request)
        if request.httpBody != nil && !endpoint.method.allowsBody {
            throw RequestBuildError.bodyNotAllowed(method: endpoint.method.rawValue)
        }
        return request
    }

    /// The endpoint's timeout, else the default: the client's deadline for one request, in seconds.
    public func timeout(for endpoint: some Endpoint) -> TimeInterval {
        endpoint.timeout ?? defaultTimeout
    }

    private func makeURL(path: String) throws -> URL {
        let base = environment.baseURL
        guard let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var components = URLComponents(url: base, resolvingAgainstBaseURL: false),
              components.host?.isEmpty == false
        else { throw RequestBuildError.invalidURL(base.absoluteString) }

        let (pathPart, queryPart) = Self.split(path)
        guard pathPart.hasPrefix("/") else { throw RequestBuildError.invalidURL(path) }
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + pathPart
        if let queryPart { components.query = queryPart }
        guard let url = components.url else { throw RequestBuildError.invalidURL(path) }
        return url
    }

    private static func split(_ path: String) -> (String, String?) {
        guard let mark = path.firstIndex(of: "?") else { return (path, nil) }
        return (String(path[..<mark]), String(path[path.index(after: mark)...]))
    }

    /// FoundationNetworking truncates timeouts to whole seconds, so 0.5 s times out at once;
    /// round up to a whole second there so a short timeout still waits.
    static func effectiveTimeout(_ timeout: TimeInterval) -> TimeInterval {
        #if canImport(FoundationNetworking)
        return max(1, timeout.rounded(.up))
        #else
        return timeout
        #endif
    }
}
