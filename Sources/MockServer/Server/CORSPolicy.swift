import HTTPCore

/// Cross-origin access to the mock endpoints, for a web front-end served from another origin (a dev
/// server on `localhost:3000` calling the mock on `:8080`). Off by default; never applies to the admin
/// API, which refuses other origins whatever this says.
public struct CORSPolicy: Sendable, Equatable {
    /// The origins allowed, exactly as browsers send them (`http://localhost:3000`); `nil` allows any and
    /// echoes it back.
    public let origins: [String]?

    /// Allows every origin (`--cors`).
    public static let anyOrigin = CORSPolicy(origins: nil)

    /// Allows only `origins` (`--cors http://localhost:3000`).
    public static func origins(_ origins: [String]) -> CORSPolicy { CORSPolicy(origins: origins) }

    static let exposedHeaders = [MockHeader.endpoint, MockHeader.scenario, "Retry-After", "RateLimit-Limit",
                                 "RateLimit-Remaining", "RateLimit-Reset", "X-RateLimit-Limit", "X-RateLimit-Remaining",
                                 "X-RateLimit-Reset"].joined(separator: ", ")
    static let maxAgeSeconds = 600

    func allows(_ origin: String) -> Bool {
        origins.map { $0.contains { HTTPHeaders.equal($0, origin) } } ?? true
    }

    /// The answer to a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) for a path
    /// whose endpoints take `allowedMethods`, or `nil` when the request is not one or its origin is not
    /// allowed (it then gets a plain `OPTIONS` answer, and the browser blocks the real request).
    func preflight(_ request: HTTPRequest, allowedMethods: [HTTPRequest.Method]) -> HTTPResponse? {
        guard let origin = request.headers["Origin"], allows(origin),
              let method = request.headers["Access-Control-Request-Method"] else { return nil }
        var fields: [(name: String, value: String)] = [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Allow-Methods", allowedMethods.contains(HTTPRequest.Method(rawValue: method)) ? method
                : allowedMethods.map(\.rawValue).joined(separator: ", ")),
        ]
        if let headers = request.headers["Access-Control-Request-Headers"] {
            fields.append(("Access-Control-Allow-Headers", headers))
        }
        fields += [("Access-Control-Max-Age", String(Self.maxAgeSeconds)),
                   ("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")]
        return HTTPResponse(status: .noContent, headers: fields)
    }

    /// `reply` with the headers that let the page at the request's `Origin` read it, when that origin
    /// is allowed.
    func decorate(_ reply: Reply, for request: HTTPRequest) -> Reply {
        guard let origin = request.headers["Origin"], allows(origin) else { return reply }
        // Any reply with a response: a paced body's stream as much as a finished one.
        var decorated = reply
        decorated.addFields([
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Expose-Headers", Self.exposedHeaders),
            ("Vary", "Origin"),
        ])
        return decorated
    }
}
