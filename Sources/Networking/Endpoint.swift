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
    /// The request's idle timeout in seconds, or `nil` for the client's default.
    var timeout: TimeInterval? { get }
}

extension Endpoint {
    public var headers: [String: String] { [:] }
    public var body: any RequestBody { PlainBody() }
    public var timeout: TimeInterval? { nil }
}
