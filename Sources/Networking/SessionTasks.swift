#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The delegate of a ``URLSessionDispatcher``'s session: runs each data task to a response, never lets
/// URLSession follow a redirect (the dispatcher does), and takes a 401 that challenges as the response.
final class SessionTasks: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `running` and `cancelled` are only touched while holding `lock`; URLSession calls the
    // delegate on its own queue.
    private let lock = NSLock()
    private var running: [Int: Running] = [:]
    private var cancelled: Set<Int> = []

    private struct Running {
        let continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>
        var body = Data()
        var response: HTTPURLResponse?
        /// The 401 that challenged, when the challenge was cancelled to get past it.
        var challenged: HTTPURLResponse?
    }

    /// Runs one request to its response, without following redirects.
    func run(_ request: URLRequest, in session: URLSession) async throws -> (Data, HTTPURLResponse) {
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                if cancelled.remove(id) != nil {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                    return
                }
                running[id] = Running(continuation: continuation)
                lock.unlock()
                task.resume()
            }
        } onCancel: {
            lock.withLock { _ = cancelled.insert(id) }
            task.cancel()
        }
    }

    // MARK: - URLSessionTaskDelegate

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        #if canImport(FoundationNetworking)
        // FoundationNetworking's default handling of an HTTP challenge without a credential never resumes
        // the task (swift-corelibs-foundation #5456); cancelling the challenge delivers the 401 and its body.
        // (It raises no TLS challenges, so every challenge here is an HTTP one.)
        if let failure = challenge.failureResponse as? HTTPURLResponse {
            lock.withLock { running[task.taskIdentifier]?.challenged = failure }
            completionHandler(.cancelAuthenticationChallenge, nil)
            return
        }
        #endif
        // Apple's default handling delivers a 401 without a stored credential, and checks TLS trust.
        completionHandler(.performDefaultHandling, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        let (finished, wasCancelled) = lock.withLock { (running.removeValue(forKey: id), cancelled.remove(id) != nil) }
        guard let finished else { return }
        let response = finished.response ?? finished.challenged
        if let error {
            if let response, !wasCancelled, finished.challenged != nil {
                finished.continuation.resume(returning: (finished.body, response))
            } else {
                finished.continuation.resume(throwing: error)
            }
        } else if let response {
            finished.continuation.resume(returning: (finished.body, response))
        } else {
            finished.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        lock.withLock { running[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { running[dataTask.taskIdentifier]?.body.append(data) }
    }
}
