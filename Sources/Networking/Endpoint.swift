#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One API call of a domain, described declaratively: the Router pattern.
///
/// Declare each domain as an enum whose cases are its calls; the enum conforms to `Endpoint` and
/// ``RequestBuilder`` turns any case into a `URLRequest`. The base URL is not part of an endpoint:
/// it comes from the one ``ServerEnvironment`` the ``APIClient`` was created with.
///
/// ```swift
/// enum UserAPI: Endpoint {
///     case profile(id: Int)
///     case rename(id: Int, name: String)
///
///     var path: String {
///         switch self {
///         case .profile(let id), .rename(let id, _): "/users/\(id)"
///         }
///     }
///     var method: HTTPMethod {
///         switch self {
///         case .profile: .get
///         case .rename: .patch
///         }
///     }
///     var body: any RequestBody {
///         switch self {
///         case .profile: .plain
///         case .rename(_, let name): .json(["name": name])
///         }
///     }
/// }
/// ```
public protocol Endpoint: Sendable {
    /// The path below the environment's base URL, starting with `/`. Not percent-encoded.
    var path: String { get }
    /// The request method.
    var method: HTTPMethod { get }
    /// Header fields of this call. Interceptors may add more. Defaults to none.
    var headers: [String: String] { get }
    /// How the call's parameters travel: in the query or in one of the body formats.
    /// Defaults to ``PlainBody`` (nothing).
    var body: any RequestBody { get }
    /// The longest a request may take, in seconds, or `nil` for the client's default. The client ends the
    /// request then (``TransportError/Kind-swift.struct/timedOut``) whatever URLSession does; URLSession's
    /// own idle timeout is set to it too.
    var timeout: TimeInterval? { get }
    /// Whether sending the call twice has the effect of sending it once, so that a ``RetryPolicy`` may
    /// retry it. Defaults to the method's idempotency (GET, HEAD, OPTIONS, PUT, DELETE); a POST that
    /// carries an idempotency key can say `true`.
    var isIdempotent: Bool { get }
}

extension Endpoint {
    /// No header fields.
    public var headers: [String: String] { [:] }
    /// No parameters.
    public var body: any RequestBody { PlainBody() }
    /// The client's default timeout.
    public var timeout: TimeInterval? { nil }
    /// The method's idempotency (RFC 9110 §9.2.2).
    public var isIdempotent: Bool { method.isIdempotent }
}
