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
    ///   - endpoint: The call to make.
    ///   - decoding: How to read a 2xx body, for example `.json(Product.self)` or `.text`.
    ///   - interceptors: Extra interceptors for this call only, run after the client's own.
    ///   - queue: Where `completion` runs; by default on a background thread. Pass `.main` from UI code.
    ///   - completion: Called once with the mapped result (also after ``NetworkCall/cancel()``).
    /// - Returns: A handle whose ``NetworkCall/cancel()`` cancels the request.
    @discardableResult
    public func send<Decoding: ResponseDecoding>(
        _ endpoint: some Endpoint,
        decoding: Decoding,
        interceptors: [any RequestInterceptor] = [],
        queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (NetworkResult<Decoding.Value>) -> Void
    ) -> NetworkCall where Decoding.Value: Sendable {
        let task = Task {
            let result = await self.send(endpoint, decoding: decoding, interceptors: interceptors)
            if let queue {
                queue.async { completion(result) }
            } else {
                completion(result)
            }
        }
        return NetworkCall(task: task)
    }
}
