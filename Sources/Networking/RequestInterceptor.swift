#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Adapts a request just before it is dispatched: adds auth, tracing or scenario headers.
///
/// An ``APIClient`` runs its interceptors in order, then the ones passed to a single call.
/// A throw cancels the call and becomes ``NetworkResult/networkFail(_:)``.
public protocol RequestInterceptor: Sendable {
    func adapt(_ request: URLRequest) async throws -> URLRequest
}

/// Sets `Authorization: Bearer <token>`, asking the provider for the current token on every call.
public struct BearerTokenInterceptor: RequestInterceptor {
    private let token: @Sendable () async throws -> String

    /// - Parameter token: Returns the current access token; may refresh it.
    public init(token: @escaping @Sendable () async throws -> String) {
        self.token = token
    }

    public func adapt(_ request: URLRequest) async throws -> URLRequest {
        var request = request
        request.setValue("Bearer \(try await token())", forHTTPHeaderField: "Authorization")
        return request
    }
}

/// Sets fixed header fields, replacing values of the same name.
public struct HeaderInterceptor: RequestInterceptor {
    public let headers: [String: String]

    public init(_ headers: [String: String]) { self.headers = headers }

    public func adapt(_ request: URLRequest) async throws -> URLRequest {
        var request = request
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }
}
