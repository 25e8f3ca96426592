extension HTTPRequest {
    /// A request method (RFC 9110 §9), case-sensitive as the RFC has it. A name, not a closed set: a contract may
    /// declare any token, and a request may carry one no endpoint takes (the router answers it with a 405).
    /// Written as a string literal where a method is expected (`"GET"`), and shown as its name.
    public struct Method: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        public var description: String { rawValue }

        public static let get: Method = "GET"
        public static let head: Method = "HEAD"
        public static let post: Method = "POST"
        public static let put: Method = "PUT"
        public static let patch: Method = "PATCH"
        public static let delete: Method = "DELETE"
        public static let options: Method = "OPTIONS"

        /// Whether a request with this method changes nothing on the server (RFC 9110 §9.2.1).
        public var isSafe: Bool { self == .get || self == .head || self == .options || self == "TRACE" }
    }
}
