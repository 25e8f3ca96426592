#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends a request and returns the raw response: the seam where tests replace the network.
public protocol NetworkDispatcher: Sendable {
    /// - Returns: The body and the HTTP response, whatever its status.
    /// - Throws: A transport error (`URLError`, `CancellationError`) when no response arrived.
    func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// A dispatcher backed by a `URLSession`.
public struct URLSessionDispatcher: NetworkDispatcher {
    public let session: URLSession

    /// - Parameter session: Defaults to a new ephemeral session (no cookies or cache shared
    ///   with the rest of the app).
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    public func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try Task.checkCancellation()
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }
}
