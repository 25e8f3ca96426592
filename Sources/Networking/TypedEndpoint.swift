import Foundation

/// An endpoint that declares what its response decodes to, once, so a call needs no decoding argument:
/// `client.send(ProductAPI.detail(id: 7))` is a `NetworkResult<Product>`.
///
/// An enum whose every case answers the same type conforms directly:
///
/// ```swift
/// enum HealthAPI: TypedEndpoint {
///     case check
///     var path: String { "/healthChecker" }
///     var method: HTTPMethod { .get }
///     var decoding: TextResponse { .text }
/// }
/// ```
///
/// A domain whose calls answer different types keeps its cases in a plain ``Endpoint`` enum (its routes)
/// and gives each call a typed ``Request``, as Get's `Request<Response>` does:
///
/// ```swift
/// static func detail(id: Int) -> Request<Product> {
///     Request(Route.detail(id: id), decoding: .json(Product.self, decoder: decoder))
/// }
/// ```
///
/// The explicit form, `client.send(endpoint, decoding: …)`, works for every endpoint, typed or not.
public protocol TypedEndpoint<Response>: Endpoint {
    /// What a 2xx body becomes.
    associatedtype Response
    /// The strategy that reads a 2xx body.
    associatedtype Decoding: ResponseDecoding where Decoding.Value == Response
    /// How a 2xx body becomes a ``Response``.
    var decoding: Decoding { get }
}

/// A route paired with the way its response decodes: a ``TypedEndpoint`` made from any ``Endpoint``.
///
/// Everything but the decoding (path, method, headers, body, timeout, idempotency) is the route's.
public struct Request<Response>: TypedEndpoint {
    /// The call as the router describes it.
    public let route: any Endpoint
    /// How its 2xx body decodes.
    public let decoding: AnyResponseDecoding<Response>

    /// - Parameters:
    ///   - route: The call, usually a case of a domain's ``Endpoint`` enum.
    ///   - decoding: How its 2xx body becomes a `Response`, for example `.json(Product.self)`.
    public init<Decoding: ResponseDecoding>(_ route: some Endpoint, decoding: Decoding)
    where Decoding.Value == Response {
        self.route = route
        self.decoding = AnyResponseDecoding(decoding)
    }

    /// The route's path.
    public var path: String { route.path }
    /// The route's method.
    public var method: HTTPMethod { route.method }
    /// The route's header fields.
    public var headers: [String: String] { route.headers }
    /// The route's body strategy.
    public var body: any RequestBody { route.body }
    /// The route's timeout.
    public var timeout: TimeInterval? { route.timeout }
    /// The route's idempotency.
    public var isIdempotent: Bool { route.isIdempotent }
}

/// Any ``ResponseDecoding`` whose value is `Value`, behind one concrete type.
public struct AnyResponseDecoding<Value>: ResponseDecoding {
    private let decodeBody: @Sendable (Data, Int) throws -> Value

    /// Wraps `decoding`.
    public init<Decoding: ResponseDecoding>(_ decoding: Decoding) where Decoding.Value == Value {
        decodeBody = { body, status in try decoding.decode(body, status: status) }
    }

    /// Decodes as the wrapped strategy does.
    public func decode(_ body: Data, status: Int) throws -> Value {
        try decodeBody(body, status)
    }
}
