import Dispatch

/// A call started with a completion handler; cancel it to stop the request.
public struct NetworkCall: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) { self.task = task }

    /// Cancels the request. The completion handler still runs once, with
    /// `.networkFail` of kind ``TransportError/Kind-swift.struct/cancelled``.
    public func cancel() { task.cancel() }
}

extension APIClient {
    /// Sends `endpoint` and calls `completion` once with the result, for callers not on async/await.
    /// - Parameters:
    ///   - queue: Where `completion` runs; by default on a background thread. Pass `.main` from UI code.
    /// - Returns: A handle whose ``NetworkCall/cancel()`` cancels the request.
    @discardableResult
    public func send<Decoding: ResponseDecoding>(
        _ endpoint: some Endpoint,
        decoding: Decoding,
        interceptors extra: [any RequestInterceptor] = [],
        queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (NetworkResult<Decoding.Value>) -> Void
    ) -> NetworkCall where Decoding.Value: Sendable {
        let task = Task {
            let result = await self.send(endpoint, decoding: decoding, interceptors: extra)
            if let queue {
                queue.async { completion(result) }
            } else {
                completion(result)
            }
        }
        return NetworkCall(task: task)
    }
}
