import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPCore

/// The pure parts of the bridge: the URLRequest for a relayed request, the response fields relayed back, and
/// the reason a 502 gives for a URLError. No network; unit-tested.
enum BridgeTranslation {
    /// Fields that describe one connection (RFC 9110 §7.6.1), never relayed either way.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
    ]
    /// Request fields URLSession sets itself from the URL and the body; `Expect` would make curl wait.
    static let setBySession: Set<String> = ["host", "content-length", "expect", BridgeFailure.tokenField.lowercased()]
    /// Codings curl decodes by itself: a body that had one arrives decoded.
    static let decodedCodings: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd"]

    /// Why a request cannot be relayed at all.
    struct Refusal: Error, Equatable {
        let reason: String
    }

    /// The request for the target: the method, the URL, the client's end-to-end fields as sent (less `Host`,
    /// `Content-Length`, `Expect`), `Accept-Encoding: identity` unless the client set one, and the body.
    static func urlRequest(for request: HTTPRequest, target: BridgeTarget, timeout: Int) throws(Refusal) -> URLRequest {
        let text = target.url(for: request.target)
        guard let url = URL(string: text) else {
            throw Refusal(reason: "TLS bridge: \(text) is not a URL URLSession takes")
        }
        if request.method == "GET" && !request.body.isEmpty {
            throw Refusal(reason: "TLS bridge: URLSession cannot send a body with GET")
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
                                    timeoutInterval: TimeInterval(max(1, timeout)))
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpShouldHandleCookies = false
        for field in requestFields(request.headers.fields) {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH", "DELETE"].contains(request.method) {
            urlRequest.httpBody = Data(request.body)
        }
        return urlRequest
    }

    /// The client's fields as relayed: hop-by-hop ones (and those `Connection` names) and the session's own
    /// dropped, `Accept-Encoding: identity` added when absent so curl asks for no coding.
    static func requestFields(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var kept = endToEnd(fields, alsoDropping: setBySession)
        if !fields.contains(where: { $0.name.lowercased() == "accept-encoding" }) {
            kept.append((name: "Accept-Encoding", value: "identity"))
        }
        return kept
    }

    /// The response fields relayed to the client, sorted by name (URLSession keeps no order): hop-by-hop fields
    /// and `Content-Length` dropped (the server frames the body), and `Content-Encoding` too when curl decoded it.
    static func responseFields(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let decoded = isDecoded(fields)
        let extra: Set<String> = decoded ? ["content-length", "content-encoding", "date"] : ["content-length", "date"]
        return endToEnd(fields, alsoDropping: extra).sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The body length the target announced (for HEAD), unless a coding curl decodes makes it meaningless.
    static func announcedLength(_ fields: [(name: String, value: String)]) -> Int? {
        guard !isDecoded(fields) else { return nil }
        return fields.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value.trimmingSpaces()) }
    }

    /// Whether the body had a coding curl decodes, so it arrived decoded.
    static func isDecoded(_ fields: [(name: String, value: String)]) -> Bool {
        fields.contains {
            $0.name.lowercased() == "content-encoding"
                && decodedCodings.contains($0.value.trimmingSpaces().lowercased())
        }
    }

    /// The fields of an `HTTPURLResponse` as name–value pairs.
    static func fields(of response: HTTPURLResponse) -> [(name: String, value: String)] {
        response.allHeaderFields.compactMap { key, value in
            guard let name = key as? String else { return nil }
            return (name: name, value: "\(value)")
        }
    }

    /// The reason a 502 gives for a URLError: TLS failures by name, the rest by kind.
    static func reason(for error: URLError, timeout: Int) -> String {
        // On Linux, curl's TLS failures mostly arrive as URLError -1 with curl's message: read the message.
        if let tls = tlsReason(curlMessage: detail(error)) { return tls }
        return switch error.code {
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
            "TLS: certificate not trusted (\(detail(error)))"
        case .serverCertificateHasBadDate:
            "TLS: certificate expired (\(detail(error)))"
        case .serverCertificateNotYetValid:
            "TLS: certificate not yet valid (\(detail(error)))"
        case .clientCertificateRequired, .clientCertificateRejected:
            "TLS: the server wants a client certificate (\(detail(error)))"
        case .secureConnectionFailed:
            "TLS: handshake failed (\(detail(error)))"
        case .cannotFindHost, .dnsLookupFailed:
            "DNS: the host name did not resolve (\(detail(error)))"
        case .cannotConnectToHost:
            "connection refused (\(detail(error)))"
        case .timedOut:
            "timeout: no answer within \(timeout) s (--upstream-timeout, whole seconds through URLSession)"
        case .networkConnectionLost, .badServerResponse, .unknown:
            "connection reset: \(detail(error))"
        case .cancelled:
            "the backend asked for authentication URLSession cannot relay on Linux (a Basic challenge)"
        default:
            "URLSession error \(error.code.rawValue): \(detail(error))"
        }
    }

    /// A readable reason for curl's TLS messages ("SSL certificate problem: unable to get local issuer
    /// certificate", "SSL: no alternative certificate subject name matches target host name", …), else `nil`.
    static func tlsReason(curlMessage message: String) -> String? {
        let lower = message.lowercased()
        if lower.contains("certificate has expired") { return "TLS: certificate expired (\(message))" }
        if lower.contains("subject name") || lower.contains("does not match target host") {
            return "TLS: certificate does not name the host (\(message))"
        }
        if lower.contains("ssl certificate problem") || lower.contains("self-signed") || lower.contains("self signed")
            || lower.contains("issuer certificate") {
            return "TLS: certificate not trusted (\(message))"
        }
        if lower.contains("ssl") || lower.contains("tls") { return "TLS: handshake failed (\(message))" }
        return nil
    }

    private static func detail(_ error: URLError) -> String {
        let text = (error.userInfo[NSLocalizedDescriptionKey] as? String) ?? error.localizedDescription
        return "\(text), URLError \(error.code.rawValue)"
    }

    private static func endToEnd(_ fields: [(name: String, value: String)], alsoDropping extra: Set<String>)
        -> [(name: String, value: String)]
    {
        var dropped = hopByHop.union(extra)
        for field in fields where field.name.lowercased() == "connection" {
            for token in field.value.split(separator: ",") { dropped.insert(token.trimmingSpaces().lowercased()) }
        }
        return fields.filter { !dropped.contains($0.name.lowercased()) }
    }
}
