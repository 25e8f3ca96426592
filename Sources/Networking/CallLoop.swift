#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One call from first try to result: builds the request once, then tries it (interceptors, dispatch
/// under the deadline) as often as the retry policy and one authentication replay allow.
struct CallLoop {
    let client: APIClient
    let interceptors: [any RequestInterceptor]
    let retry: RetryPolicy

    /// What one try produced.
    private enum Outcome {
        /// A response, whether the request carried credentials, and where the refresher stood when it went out.
        case response(Data, HTTPURLResponse, sentCredentials: Bool, sentUnder: AuthRefresher.Snapshot?)
        case failure(any Error)
    }

    func run<Decoding: ResponseDecoding>(_ endpoint: some Endpoint, decoding: Decoding) async
        -> NetworkResponse<Decoding.Value>
    {
        let request: URLRequest
        do {
            request = try client.builder.makeRequest(for: endpoint)
        } catch {
            return NetworkResponse(result: client.mapping.result(for: error), attempts: 0)
        }
        let deadline = client.builder.timeout(for: endpoint)
        var attempts = 0
        var retries = 0
        var replayed = false
        while true {
            if Task.isCancelled {
                return NetworkResponse(result: client.mapping.result(for: CancellationError()), attempts: attempts)
            }
            attempts += 1
            let outcome = await attempt(request, deadline: deadline)
            if case .response(_, let http, true, let sentUnder?) = outcome, http.statusCode == 401,
               let refresher = client.authRefresher, !replayed {
                replayed = true
                if await refresher.refresh(after: sentUnder) { continue }
            }
            let response = makeResponse(outcome, decoding: decoding, attempts: attempts)
            guard endpoint.isIdempotent, retry.isRetryable(status: response.status, failure: failureKind(response)),
                  let wait = retry.delay(beforeRetry: retries + 1, retryAfter: response.headers["Retry-After"])
            else { return response }
            do {
                try await retry.timing.sleep(wait)
                try Task.checkCancellation()
            } catch {
                return NetworkResponse(result: client.mapping.result(for: CancellationError()), attempts: attempts)
            }
            retries += 1
        }
    }

    /// One try: the interceptors adapt the request, then the dispatcher sends it under the deadline.
    private func attempt(_ base: URLRequest, deadline: TimeInterval) async -> Outcome {
        let sentUnder = await client.authRefresher?.snapshot
        do {
            var adapted = base
            for interceptor in interceptors { adapted = try await interceptor.adapt(adapted) }
            let request = adapted
            let dispatcher = client.dispatcher
            let (body, response) = try await Deadline.run(seconds: deadline) { try await dispatcher.dispatch(request) }
            let sentCredentials = request.value(forHTTPHeaderField: "Authorization") != nil
            return .response(body, response, sentCredentials: sentCredentials, sentUnder: sentUnder)
        } catch {
            return .failure(error)
        }
    }

    private func makeResponse<Decoding: ResponseDecoding>(_ outcome: Outcome, decoding: Decoding, attempts: Int)
        -> NetworkResponse<Decoding.Value>
    {
        switch outcome {
        case .response(let body, let http, _, _):
            NetworkResponse(result: client.mapping.result(status: http.statusCode, body: body, decoding: decoding),
                            status: http.statusCode, headers: HTTPHeaders(http), url: http.url, attempts: attempts)
        case .failure(let error):
            NetworkResponse(result: client.mapping.result(for: error), attempts: attempts)
        }
    }

    private func failureKind<Value>(_ response: NetworkResponse<Value>) -> TransportError.Kind? {
        if case .networkFail(let error) = response.result { return error.kind }
        return nil
    }
}
