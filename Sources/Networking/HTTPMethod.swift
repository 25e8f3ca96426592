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

    public var description: String { rawValue }

    public static let get: HTTPMethod = "GET"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let head: HTTPMethod = "HEAD"
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether a request with this method may carry a body when sent through URLSession.
    ///
    /// FoundationNetworking refuses a GET with a body (`-1103`), and HEAD has no body by definition.
    var allowsBody: Bool { self != .get && self != .head }
}
