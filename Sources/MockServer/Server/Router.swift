import ContractModel
import HTTPCore

/// Finds the route (the prepared contract endpoint) of a request by method and path template.
struct Router: Sendable {
    enum Match {
        case route(Route, parameters: [String: String])
        /// The path exists, but not for this method; `allow` lists the methods that do.
        case methodNotAllowed(allow: [String])
        case notFound
    }

    private let routes: [Route]

    /// Endpoints with more literal segments are tried first, so `/question/today` wins over
    /// `/question/{index}` whatever the order in the contract files.
    init(routes: [Route]) {
        self.routes = routes.enumerated().sorted { lhs, rhs in
            let left = lhs.element.path.parameterNames.count
            let right = rhs.element.path.parameterNames.count
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// - Parameter segments: The percent-decoded path segments (see ``PercentDecoding``).
    func match(method: String, segments: [String]) -> Match {
        var allowed: [String] = []
        for route in routes {
            guard let parameters = route.path.match(segments) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .route(route, parameters: parameters)
            }
            for allow in route.method == "GET" ? ["GET", "HEAD"] : [route.method] where !allowed.contains(allow) {
                allowed.append(allow)
            }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allow: allowed)
    }
}
