#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Where a redirect leads, by RFC 9110 §15.4: the request to send next, or `nil` to return the response.
enum RedirectRule {
    /// Header fields that only make sense with the body they described.
    private static let contentFields = ["Content-Type", "Content-Length", "Content-Encoding"]
    /// Header fields that must not follow a redirect to another origin.
    private static let credentialFields = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// The next request after `response` to `request`.
    ///
    /// - 301 and 302: a POST becomes a GET without its body (what every user agent does); other methods
    ///   are kept with their body.
    /// - 303: anything but HEAD becomes a GET without a body.
    /// - 307 and 308: method and body are kept.
    /// - Credentials are dropped when the new URL is on another origin (scheme, host or port).
    ///
    /// - Returns: `nil` for any other status, a missing or unusable `Location`, or a scheme other than http(s).
    static func follow(_ response: HTTPURLResponse, from request: URLRequest) -> URLRequest? {
        let status = response.statusCode
        guard [301, 302, 303, 307, 308].contains(status),
              let location = response.value(forHTTPHeaderField: "Location"),
              let current = request.url ?? response.url,
              let target = URL(string: location, relativeTo: current)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        var next = request
        next.url = target
        let method = request.httpMethod ?? "GET"
        let becomesGet = (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST")
        if becomesGet {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            for name in contentFields { next.setValue(nil, forHTTPHeaderField: name) }
        }
        if !sameOrigin(current, target) {
            for name in credentialFields { next.setValue(nil, forHTTPHeaderField: name) }
        }
        return next
    }

    private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}
