/// The backend a proxy forwards to, from a base URL such as `http://127.0.0.1:9000/api` or
/// `https://api.example.com/v1`: checked at start, so a typo is a usage error rather than a 502 on every request.
/// An `https://` target is reached through the TLS bridge (``TLSBridge``), a helper process beside the executable.
public struct UpstreamTarget: Sendable, Equatable {
    /// Why a base URL cannot be a target.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Whether the target is `https://`: relayed through the TLS bridge.
    public let isSecure: Bool
    /// `http://host:port/base` as given, without a trailing `/`: what messages name.
    public let url: String
    /// The host as the URL writes it (an IPv6 address without its brackets).
    public let host: String
    public let port: UInt16
    /// The path every request path is appended to: `""` or `/api`, never ending in `/`.
    public let basePath: String
    /// The `Host` field the target expects: `host` or `host:port` (the scheme's default port left out), IPv6 in
    /// brackets. Made once: it goes into every relayed request.
    public let hostField: String

    /// - Throws: ``Problem`` when the URL is not `http[s]://host[:port][/path]`: another scheme, no host, a
    ///   bad port, a query, a fragment, credentials.
    public init(parsing text: String) throws(Problem) {
        let lower = text.lowercased()
        isSecure = lower.hasPrefix("https://")
        guard isSecure || lower.hasPrefix("http://") else {
            throw Problem(description: "\(text) is not an http:// or https:// URL (for example http://127.0.0.1:9000 "
                + "or https://host/api)")
        }
        let scheme = isSecure ? "https://" : "http://"
        let rest = text.dropFirst(scheme.count)
        guard !rest.contains("?"), !rest.contains("#") else {
            throw Problem(description: "\(text): a target has no query or fragment; requests bring their own")
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        guard !authority.contains("@") else {
            throw Problem(description: "\(text): credentials in the URL are not supported; clients send their own headers")
        }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw Problem(description: "\(text): an IPv6 host needs its closing ]")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Problem(description: "\(text): only a port may follow ]") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw Problem(description: "\(text) has no host (for example http://127.0.0.1:9000)") }
        guard host.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw Problem(description: "\(text): the host has spaces or characters outside ASCII")
        }
        var port: UInt16 = isSecure ? 443 : 80
        if let portText {
            guard let parsed = UInt16(portText), parsed > 0 else {
                throw Problem(description: "\(text): '\(portText)' is not a port 1...65535")
            }
            port = parsed
        }
        if let bad = Self.firstInvalidPathCharacter(path) {
            throw Problem(description: "\(text): the path has '\(bad)', which a URL path cannot hold as is "
                + "(percent-encode it, e.g. %20 for a space)")
        }
        self.host = String(host)
        self.port = port
        var base = String(path)
        while base.hasSuffix("/") { base.removeLast() }
        basePath = base
        let shownHost = host.contains(":") ? "[\(host)]" : String(host)
        url = scheme + shownHost + (portText == nil ? "" : ":\(port)") + base
        hostField = port == (isSecure ? 443 : 80) ? shownHost : "\(shownHost):\(port)"
    }

    /// The first character of `path` that RFC 3986 does not allow in a path (`pchar` and `/`), or a `%`
    /// without two hex digits after it; `nil` when the path can be sent as it is.
    static func firstInvalidPathCharacter(_ path: Substring) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        let bytes = Array(path.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let hex = bytes.dropFirst(index + 1).prefix(2)
                guard hex.count == 2, hex.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0
                    || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 | 0x20 }) else { return "%" }
                index += 3
                continue
            }
            guard allowed.contains(byte) else { return byte < 128 ? String(UnicodeScalar(byte)) : "non-ASCII text" }
            index += 1
        }
        return nil
    }

    /// `https://host[:port]/base` for the TLS bridge's `--target`: the base path is joined there.
    public var secureURL: String { "https://" + hostField + basePath }
}
