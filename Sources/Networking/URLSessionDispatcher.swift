#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A dispatcher backed by a `URLSession` of its own, which behaves the same on Apple platforms and Linux.
///
/// It follows redirects itself (`RedirectRule`): 307 and 308 keep the method and the body
/// (RFC 9110 §15.4.8), which FoundationNetworking drops on Linux; 301 and 302 turn a POST into a GET, and
/// 303 turns anything but HEAD into a GET; credentials are not sent to another origin. It answers a
/// 401's HTTP authentication challenge by taking the 401 as the response, where FoundationNetworking,
/// challenged with `WWW-Authenticate: Basic`, would hang past every timeout.
public final class URLSessionDispatcher: NetworkDispatcher {
    /// The session requests go through: the dispatcher's own, invalidated when the dispatcher goes away.
    public let session: URLSession
    /// Redirects followed for one request before it fails with `URLError(.httpTooManyRedirects)`.
    public let maxRedirects: Int
    private let tasks: SessionTasks

    /// - Parameters:
    ///   - configuration: The session's configuration; ephemeral by default (no cookies or cache shared
    ///     with the rest of the app).
    ///   - maxRedirects: Redirects followed for one request; 20 by default, as browsers and curl.
    public init(configuration: URLSessionConfiguration = .ephemeral, maxRedirects: Int = 20) {
        tasks = SessionTasks()
        session = URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
        self.maxRedirects = maxRedirects
    }

    /// A dispatcher whose own session has `session`'s configuration. `session` itself is not used: the
    /// dispatcher needs a session whose delegate it is, to follow redirects and answer challenges.
    public convenience init(session: URLSession) {
        self.init(configuration: session.configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request`, following redirects.
    /// - Returns: The body and the last response, whatever its status.
    /// - Throws: `URLError` when no response arrived, `CancellationError` when the task was cancelled first.
    public func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var current = request
        for _ in 0...maxRedirects {
            try Task.checkCancellation()
            let (body, response) = try await tasks.run(current, in: session)
            guard let next = RedirectRule.follow(response, from: current) else { return (body, response) }
            current = next
        }
        throw URLError(.httpTooManyRedirects)
    }
}
