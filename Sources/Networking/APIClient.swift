#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends ``Endpoint``s and maps every outcome onto a ``NetworkResult``.
///
/// Three steps, each replaceable: ``RequestBuilder`` makes the request, the ``NetworkDispatcher``
/// sends it, and the ``ResultMapping`` turns status and body into a result. The client never throws:
/// failures are cases of the result. Around them it keeps its own promises: a request never outlives
/// its timeout, a ``RetryPolicy`` sends idempotent calls again after a retryable outcome, and an
/// ``AuthRefresher`` refreshes credentials once after a 401 and replays.
///
/// ```swift
/// let client = APIClient(environment: .local(port: 8080), retry: RetryPolicy(maxAttempts: 3))
/// let result = await client.send(ProductAPI.detail(id: 7))                        // NetworkResult<Product>
/// let raw = await client.send(UserAPI.profile(id: 7), decoding: .json(User.self)) // any endpoint
/// let page = await client.response(for: ProductAPI.list(page: 1, itemsPerPage: 20)) // + status, headers
/// ```
///
/// Cancelling the calling `Task` cancels the request, or a wait between retries; the result is then
/// `.networkFail` with kind ``TransportError/Kind-swift.struct/cancelled``.
public final class APIClient: Sendable {
    /// Makes each endpoint into a request.
    public let builder: RequestBuilder
    /// Sends requests.
    public let dispatcher: any NetworkDispatcher
    /// Adapt every request, in order, before each try.
    public let interceptors: [any RequestInterceptor]
    /// Decides what a status means.
    public let mapping: any ResultMapping
    /// The retry policy of calls that do not pass their own.
    public let retry: RetryPolicy
    /// Refreshes credentials after a 401, if set.
    public let authRefresher: AuthRefresher?

    /// - Parameters:
    ///   - environment: The server every endpoint's path is resolved against.
    ///   - dispatcher: Sends requests. Pass an ``OfflineDispatcher`` in unit tests.
    ///   - interceptors: Adapt every request, in order (auth, tracing, ...), before each try.
    ///   - mapping: Decides what a status means; ``StatusMapping`` by default.
    ///   - defaultTimeout: Seconds a request may take, unless its endpoint sets its own timeout.
    ///   - retry: When to send a call again; ``RetryPolicy/none`` by default.
    ///   - authRefresher: Refreshes credentials after a 401 to a request that sent them; none by default.
    public init(
        environment: ServerEnvironment,
        dispatcher: any NetworkDispatcher = URLSessionDispatcher(),
        interceptors: [any RequestInterceptor] = [],
        mapping: any ResultMapping = StatusMapping(),
        defaultTimeout: TimeInterval = 30,
        retry: RetryPolicy = .none,
        authRefresher: AuthRefresher? = nil
    ) {
        self.builder = RequestBuilder(environment: environment, defaultTimeout: defaultTimeout)
        self.dispatcher = dispatcher
        self.interceptors = interceptors
        self.mapping = mapping
        self.retry = retry
        self.authRefresher = authRefresher
    }

    // MARK: - Results

    /// Sends `endpoint` and decodes a 2xx body with `decoding`.
    /// - Parameters:
    ///   - endpoint: The call to make.
    ///   - decoding: How to read a 2xx body, for example `.json(Product.self)` or `.text`.
    ///   - interceptors: Extra interceptors for this call only, run after the client's own.
    ///   - retry: This call's retry policy; `nil` for the client's.
    /// - Returns: The mapped result; never throws.
    public func send<Decoding: ResponseDecoding>(
        _ endpoint: some Endpoint,
        decoding: Decoding,
        interceptors: [any RequestInterceptor] = [],
        retry: RetryPolicy? = nil
    ) async -> NetworkResult<Decoding.Value> {
        await response(for: endpoint, decoding: decoding, interceptors: interceptors, retry: retry).result
    }

    /// Sends an endpoint that declares its response type, and decodes a 2xx body as it says.
    /// - Parameters:
    ///   - endpoint: The call to make, for example `ProductAPI.detail(id: 7)`.
    ///   - interceptors: Extra interceptors for this call only, run after the client's own.
    ///   - retry: This call's retry policy; `nil` for the client's.
    /// - Returns: The mapped result; never throws.
    public func send<Typed: TypedEndpoint>(
        _ endpoint: Typed,
        interceptors: [any RequestInterceptor] = [],
        retry: RetryPolicy? = nil
    ) async -> NetworkResult<Typed.Response> {
        await response(for: endpoint, decoding: endpoint.decoding, interceptors: interceptors, retry: retry).result
    }

    /// Sends `endpoint` when the caller needs no response value: any 2xx succeeds.
    /// - Parameters:
    ///   - endpoint: The call to make.
    ///   - interceptors: Extra interceptors for this call only, run after the client's own.
    ///   - retry: This call's retry policy; `nil` for the client's.
    public func send(
        _ endpoint: some Endpoint,
        interceptors: [any RequestInterceptor] = [],
        retry: RetryPolicy? = nil
    ) async -> NetworkResult<Void> {
        await send(endpoint, decoding: EmptyResponse(), interceptors: interceptors, retry: retry)
    }

    // MARK: - Results with status and headers

    /// Sends `endpoint` like ``send(_:decoding:interceptors:retry:)``, and keeps the last response's
    /// status, headers and URL, and how many tries it took.
    public func response<Decoding: ResponseDecoding>(
        for endpoint: some Endpoint,
        decoding: Decoding,
        interceptors: [any RequestInterceptor] = [],
        retry: RetryPolicy? = nil
    ) async -> NetworkResponse<Decoding.Value> {
        await CallLoop(client: self, interceptors: self.interceptors + interceptors, retry: retry ?? self.retry)
            .run(endpoint, decoding: decoding)
    }

    /// Sends an endpoint that declares its response type, and keeps the last response's status, headers
    /// and URL, and how many tries it took.
    public func response<Typed: TypedEndpoint>(
        for endpoint: Typed,
        interceptors: [any RequestInterceptor] = [],
        retry: RetryPolicy? = nil
    ) async -> NetworkResponse<Typed.Response> {
        await response(for: endpoint, decoding: endpoint.decoding, interceptors: interceptors, retry: retry)
    }
}
