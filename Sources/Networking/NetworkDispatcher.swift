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
