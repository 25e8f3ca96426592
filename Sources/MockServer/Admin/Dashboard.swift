import HTTPCore
import MockProtocol

/// The browser dashboard: `GET /__mock/` is the page, `/__mock/dashboard/…` its style sheet and script,
/// written by hand in `Admin/Dashboard/` and compiled into the module (SwiftPM's `embedInCode`), so the
/// executable needs no files beside it and the page loads with no network beyond the server.
///
/// The page holds no secret, so it is served without the admin token (it reads the token from the URL
/// fragment the banner prints and sends it with every admin call); it still answers only requests that
/// pass the admin API's `Host` and `Origin` checks. A strict Content-Security-Policy lets it load
/// nothing but itself: no inline script or style, no frames, no other origin.
enum Dashboard {
    static let contentSecurityPolicy = "default-src 'none'; connect-src 'self'; img-src 'self' data:; "
        + "style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The page's path (a path without the final slash is redirected there, so relative URLs resolve).
    static let path = AdminPath.prefix

    private static func asset(_ bytes: [UInt8], _ contentType: String) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: [
            ("Content-Type", contentType), ("Cache-Control", "no-store"),
            ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
        ], body: bytes)
    }

    /// The files by their path below `/__mock/` (the page's is empty).
    static let assets: [String: HTTPResponse] = [
        "": asset(PackageResources.dashboard_html, "text/html; charset=utf-8"),
        "dashboard/dashboard.css": asset(PackageResources.dashboard_css, "text/css; charset=utf-8"),
        "dashboard/dashboard.js": asset(PackageResources.dashboard_js, "text/javascript; charset=utf-8"),
    ]

    /// Whether `segments` (below `/__mock`) name the page or one of its files: those need no admin token.
    static func serves(_ segments: [String]) -> Bool {
        segments.isEmpty || assets[segments.joined(separator: "/")] != nil
    }

    /// The page or file `segments` name, for GET and HEAD; `/__mock` without its slash is redirected.
    static func reply(to request: HTTPRequest, segments: [String]) -> Reply {
        guard request.method == "GET" || request.isHead else {
            return .respond(ServerJSON.error(.methodNotAllowed, "the dashboard is read with GET",
                                             headers: [("Allow", "GET, HEAD")]))
        }
        guard !segments.isEmpty, let response = assets[segments.joined(separator: "/")] else {
            // A browser keeps the URL's fragment (the token) across the redirect.
            return .respond(HTTPResponse(status: HTTPStatus(308), headers: [
                ("Location", path), ("Cache-Control", "no-store"), ("Content-Type", "text/plain; charset=utf-8"),
            ], body: Array("the dashboard is at \(path)\n".utf8)))
        }
        return .respond(response)
    }
}
