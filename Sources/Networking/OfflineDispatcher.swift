#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A canned HTTP response for ``OfflineDispatcher``.
public struct CannedResponse: Sendable {
    /// The status code.
    public let status: Int
    /// The response's header fields.
    public let headers: [String: String]
    /// The response body.
    public let body: Data

    /// A response with the given status, fields and body (200, none and empty by default).
    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body from a string.
    public static func json(_ text: String, status: Int = 200) -> CannedResponse {
        CannedResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    /// A body read from a file, for example a fixture bundled with the app's test target.
    /// - Throws: The file system's error when the file cannot be read.
    public static func file(_ url: URL, status: Int = 200, contentType: String = "application/json") throws
        -> CannedResponse
    {
        CannedResponse(status: status, headers: ["Content-Type": contentType], body: try Data(contentsOf: url))
    }
}

/// A dispatcher that answers from memory: for unit tests of view models and services, with no network.
///
/// ```swift
/// let dispatcher = OfflineDispatcher(routes: [
///     "GET /api/products/7": .json(#"{"id": 7, ...}"#),
///     "GET /healthChecker": CannedResponse(body: Data("OK".utf8)),
/// ])
/// let client = APIClient(environment: .local(), dispatcher: dispatcher)
/// ```
/// A request with no route fails like a refused connection. ``requests`` records what was sent.
public final class OfflineDispatcher: NetworkDispatcher, @unchecked Sendable {
    // @unchecked: `recorded` is only touched while holding `lock`.
    private let respond: @Sendable (URLRequest) throws -> CannedResponse
    private let lock = NSLock()
    private var recorded: [URLRequest] = []

    /// Answers with whatever `respond` returns; a throw reaches the client as a transport error.
    public init(respond: @escaping @Sendable (URLRequest) throws -> CannedResponse) {
        self.respond = respond
    }

    /// Answers by `"METHOD /path"` (the path without its query).
    public convenience init(routes: [String: CannedResponse]) {
        self.init { request in
            let key = "\(request.httpMethod ?? "GET") \(request.url?.path ?? "")"
            guard let response = routes[key] else { throw URLError(.cannotConnectToHost) }
            return response
        }
    }

    /// Every request dispatched so far, in order.
    public var requests: [URLRequest] {
        lock.withLock { recorded }
    }

    /// Records `request` and answers it from the routes or the closure.
    /// - Throws: Whatever the closure throws; `URLError(.cannotConnectToHost)` when no route matches.
    public func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { recorded.append(request) }
        try Task.checkCancellation()
        let canned = try respond(request)
        guard let url = request.url,
              let response = HTTPURLResponse(url: url, statusCode: canned.status, httpVersion: "HTTP/1.1",
                                             headerFields: canned.headers)
        else { throw URLError(.badServerResponse) }
        return (canned.body, response)
    }
}
