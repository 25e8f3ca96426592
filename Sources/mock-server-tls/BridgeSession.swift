import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPCore

/// The URLSession the bridge relays through, configured to change nothing: redirects come back as they are,
/// no cookie is stored or sent, nothing is cached, and the body is asked for without a coding. Bodies arrive
/// through the data delegate rather than a completion handler: only that way does URLSession on Linux hand over
/// the body of a 3xx whose redirect was refused.
// @unchecked Sendable: `session` is set once in init; the exchanges in flight are behind a lock.
final class BridgeSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Exchange {
        var method: String
        var completion: @Sendable (Reply) -> Void
        var response: HTTPURLResponse?
        var body = Data()
    }

    let target: BridgeTarget
    /// Whole seconds (URLSession on Linux truncates fractions).
    let timeout: Int
    private var session: URLSession?
    private let exchanges = Locked<[Int: Exchange]>([:])

    init(target: BridgeTarget, timeout: Int) {
        self.target = target
        self.timeout = max(1, timeout)
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.timeoutIntervalForRequest = TimeInterval(self.timeout)
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    /// Relays `request`; `completion` gets the reply to give the client, or a 502 carrying
    /// ``BridgeFailure/field`` with the reason.
    func relay(_ request: HTTPRequest, completion: @escaping @Sendable (Reply) -> Void) {
        let urlRequest: URLRequest
        do {
            urlRequest = try BridgeTranslation.urlRequest(for: request, target: target, timeout: timeout)
        } catch {
            return completion(.respond(Self.failure(error.reason)))
        }
        guard let session else { return completion(.respond(Self.failure("TLS bridge: no session"))) }
        let task = session.dataTask(with: urlRequest)
        exchanges.withValue { $0[task.taskIdentifier] = Exchange(method: request.method.rawValue, completion: completion) }
        task.resume()
    }

    /// The reply for a finished exchange. For HEAD, the head announces the length the target announced, with
    /// no body (the server would otherwise announce the empty body it has).
    private func reply(_ exchange: Exchange, error: (any Error)?) -> Reply {
        if let response = exchange.response, error == nil {
            let received = BridgeTranslation.fields(of: response)
            let relayed = HTTPResponse(status: HTTPStatus(response.statusCode),
                                       headers: BridgeTranslation.responseFields(received), body: Array(exchange.body))
            if exchange.method == "HEAD", let length = BridgeTranslation.announcedLength(received) {
                return Reply(.transport(.truncate(relayed, announcedLength: length)))
            }
            return .respond(relayed)
        } else if let error = error as? URLError {
            return .respond(Self.failure(BridgeTranslation.reason(for: error, timeout: timeout)))
        } else {
            return .respond(Self.failure("TLS bridge: \(error.map { "\($0)" } ?? "no response")"))
        }
    }

    static func failure(_ reason: String) -> HTTPResponse {
        HTTPResponse(status: .badGateway, headers: [(BridgeFailure.field, reason), ("Content-Type", "text/plain")],
                     body: Array(reason.utf8))
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        exchanges.withValue { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchanges.withValue { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard var exchange = exchanges.withValue({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        // A 3xx whose redirect was refused may reach here without `didReceive response`.
        if exchange.response == nil { exchange.response = task.response as? HTTPURLResponse }
        exchange.completion(reply(exchange, error: error))
    }

    // MARK: - URLSessionTaskDelegate

    /// Redirects are the client's to follow: the 3xx is relayed as it is.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// A password challenge (401 with `WWW-Authenticate: Basic` or `Digest`) is cancelled: URLSession on Linux
    /// hangs on it otherwise (swift-corelibs-foundation #5456). Others (server trust on Darwin) are handled as usual.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let passwords = [NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic,
                         NSURLAuthenticationMethodHTTPDigest]
        if passwords.contains(challenge.protectionSpace.authenticationMethod) {
            completionHandler(.cancelAuthenticationChallenge, nil)
        } else {
            completionHandler(.performDefaultHandling, nil)
        }
    }
}
