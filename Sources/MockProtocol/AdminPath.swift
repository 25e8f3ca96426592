/// The admin API's paths: everything under ``prefix`` is the mock's own, never a contract's endpoint.
public enum AdminPath {
    /// The first segment of every admin path, between slashes. Inlinable, as the server compares every request's
    /// first segment with it: a stored constant of another module is reached through a lazy initializer's check.
    @inlinable public static var segment: String { "__mock" }
    /// `/__mock/`.
    @inlinable public static var prefix: String { "/__mock/" }

    /// The admin routes: each path below ``prefix`` (`{id}` and `{domain}` stand for a name) and its methods.
    public static let routes: [(path: String, methods: [String])] = [
        ("health", ["GET"]), ("contracts", ["GET"]), ("scenarios", ["DELETE"]), ("scenarios/{id}", ["PUT", "DELETE"]),
        ("states", ["GET", "DELETE"]), ("states/{domain}", ["PUT", "DELETE"]), ("sessions", ["GET", "DELETE"]),
        ("sessions/{id}", ["DELETE"]), ("reload", ["POST"]), ("journal", ["GET", "DELETE"]), ("events", ["GET"]),
        ("resources", ["DELETE"]), ("resources/{id}", ["GET", "DELETE"]), ("conditions", ["GET", "PUT", "DELETE"]),
        ("record/flush", ["POST"]), ("verify", ["GET", "POST"]), ("streams", ["GET"]), ("streams/{id}/send", ["POST"]),
    ]

    /// `/__mock/<path>`.
    public static func path(_ path: String) -> String { prefix + path }

    /// Whether `target` (a request target, query included or not) is an admin path.
    public static func contains(_ target: some StringProtocol) -> Bool {
        target.utf8.starts(with: prefix.utf8)
    }
}
