#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends ``Endpoint``s and maps every outcome onto a ``NetworkResult``.
///
/// Three steps, each replaceable: ``RequestBuilder`` makes the request, the ``NetworkDispatcher``
/// sends it, and the ``ResultMapping`` turns status and body into a result. The client never throws:
/// failures are cases of the result.
///
/// ```swift
/// let client = APIClient(environment: .local(port: 8080))
/// let result = await client.send(ProductAPI.detail(id: 7), decoding: .json(Product.self))
/// ```
///
/// Cancelling the calling `Task` cancels the request; the result is then
/// `.networkFail` with kind ``TransportError/Kind-swift.struct/cancelled``.
public final class APIClient: Sendable {
    public let builder: RequestBuilder
    public let dispatcher: any NetworkDispatcher
    public let interceptors: [any RequestInterceptor]
    public let mapping: any ResultMapping

    /// - Parameters:
    ///   - environment: The server every endpoint's path is resolved against.
    ///   - dispatcher: Sends requests. Pass an ``OfflineDispatcher`` in unit tests.
    ///   - interceptors: Adapt every request, in order (auth, tracing, ...).
    ///   - mapping: Decides what a status means; ``StatusMapping`` by default.
    ///   - defaultTimeout: Seconds of silence after which a request fails, unless its endpoint sets one.
    public init(
        environment: ServerEnvironment,
        dispatcher: any NetworkDispatcher = URLSessionDispatcher(),
        interceptors: [any RequestInterceptor] = [],
        mapping: any ResultMapping = StatusMapping(),
        defaultTimeout: TimeInterval = 30
    ) {
        self.builder = RequestBuilder(environment: environment, defaultTimeout: defaultTimeout)
        self.dispatcher = dispatcher
        self.interceptors = interceptors
        self.mapping = mapping
    }

    /// Sends `endpoint` and decodes a 2xx body with `decoding`.
    /// - Parameters:
    ///   - endpoint: The call to make.
    ///   - decoding: How to read a 2xx body, for example `.json(Product.self)` or `.text`.
    ///   - interceptors: Extra interceptors for this call only, run after the client's own.
    /// - Returns: The mapped result; never throws.
    public func send<Decoding: ResponseDecoding>(
        _ endpoint: some Endpoint,
        decoding: Decoding,
        interceptors extra: [any RequestInterceptor] = []
    ) async -> NetworkResult<Decoding.Value> {
        do {
            var request = try builder.makeRequest(for: endpoint)
            for interceptor in interceptors + extra {
                request = try await interceptor.adapt(request)
            }
            let (body, response) = try await dispatcher.dispatch(request)
            return mapping.result(status: response.statusCode, body: body, decoding: decoding)
        } catch {
            return mapping.result(for: error)
        }
    }

    /// Sends `endpoint` when the caller needs no response value: any 2xx succeeds.
    public func send(
        _ endpoint: some Endpoint,
        interceptors extra: [any RequestInterceptor] = []
    ) async -> NetworkResult<Void> {
        await send(endpoint, decoding: EmptyResponse(), interceptors: extra)
    }
}
