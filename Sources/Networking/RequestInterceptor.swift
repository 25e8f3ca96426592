#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Adapts a request just before it is dispatched: adds auth, tracing or scenario headers.
///
/// An ``APIClient`` runs its interceptors in order, then the ones passed to a single call.
/// A throw cancels the call and becomes ``NetworkResult/networkFail(_:)``.
public protocol RequestInterceptor: Sendable {
    /// Returns `request` as it should be sent; runs again before every try of a call.
    /// - Parameter request: The request as the builder and earlier interceptors left it.
    /// - Returns: The request to send.
    /// - Throws: Any error, to cancel the call; it becomes ``NetworkResult/networkFail(_:)``.
    func adapt(_ request: URLRequest) async throws -> URLRequest
}

/// Sets `Authorization: Bearer <token>`, asking the provider for the current token on every call.
public struct BearerTokenInterceptor: RequestInterceptor {
    private let token: @Sendable () async throws -> String

    /// - Parameter token: Returns the current access token; may refresh it.
    public init(token: @escaping @Sendable () async throws -> String) {
        self.token = token
    }

    /// Sets `Authorization: Bearer <token>` with the provider's current token.
    public func adapt(_ request: URLRequest) async throws -> URLRequest {
        var request = request
        request.setValue("Bearer \(try await token())", forHTTPHeaderField: "Authorization")
        return request
    }
}

/// Sets fixed header fields, replacing values of the same name.
public struct HeaderInterceptor: RequestInterceptor {
    /// The fields set on every request.
    public let headers: [String: String]

    /// Sets `headers` on every request.
    public init(_ headers: [String: String]) { self.headers = headers }

    /// Sets the fields, replacing values of the same name.
    public func adapt(_ request: URLRequest) async throws -> URLRequest {
        var request = request
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }
}
