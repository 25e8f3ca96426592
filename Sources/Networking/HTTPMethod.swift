/// An HTTP request method.
///
/// An open set: the common methods are static members, and any other token can be written as a
/// string literal (`let purge: HTTPMethod = "PURGE"`).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as it is sent on the wire, for example `GET`.
    public let rawValue: String

    /// Creates a method from its token. Tokens are case-sensitive (RFC 9110 §9.1).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a string literal such as `"PATCH"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The token, for example `GET`.
    public var description: String { rawValue }

    /// `GET`: read a resource.
    public static let get: HTTPMethod = "GET"
    /// `POST`: process the request's content.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace a resource.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: change part of a resource.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: remove a resource.
    public static let delete: HTTPMethod = "DELETE"
    /// `HEAD`: a `GET` without the body.
    public static let head: HTTPMethod = "HEAD"
    /// `OPTIONS`: what the target allows.
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2):
    /// GET, HEAD, OPTIONS, TRACE, PUT and DELETE.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"].contains(rawValue)
    }

    /// Whether a request with this method may carry a body when sent through URLSession.
    ///
    /// FoundationNetworking refuses a GET with a body (`-1103`), and HEAD has no body by definition.
    var allowsBody: Bool { self != .get && self != .head }
}
