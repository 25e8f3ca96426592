import HTTPCore

/// Who may use the admin API under `/__mock/`: the person at the keyboard, not a web page they visit,
/// and not another device on their network unless it has the token.
///
/// - `Host` must name this machine: a loopback address or name (`127.0.0.0/8`, `::1`, `localhost`,
///   `*.localhost`), the bound address, one of the interfaces' addresses when bound to all of them, or a
///   name allowed with `--allow-host`. A DNS-rebinding page reaches the server under its own host name,
///   so it is refused.
/// - An `Origin` other than the server's own is refused for every method: no other page can drive it.
/// - With a token, `X-Mock-Admin-Token` must carry it: from every peer when the token was given, from
///   peers that are not loopback when the server made one up because it listens beyond loopback.
package struct AdminAccess: Sendable {
    static let tokenHeader = MockHeader.adminToken

    /// Host names and addresses allowed besides loopback ones, lowercased.
    private let allowedHosts: Set<String>
    private let token: String?
    /// Whether loopback peers need the token too.
    private let tokenFromLoopback: Bool

    package init(allowedHosts: [String], token: String?, tokenFromLoopback: Bool) {
        self.allowedHosts = Set(allowedHosts.map { Self.normalized(Self.hostName($0) ?? $0) })
        self.token = token
        self.tokenFromLoopback = tokenFromLoopback
    }

    /// The refusal for `request`, or `nil` when it may use the admin API (or, not `requiringToken`, read
    /// the dashboard's files, which hold no secret).
    package func refusal(of request: HTTPRequest, fromLoopback: Bool, requiringToken: Bool = true) -> HTTPResponse? {
        if let refusal = hostRefusal(of: request, for: "the admin API") { return refusal }
        let host = request.headers["Host"] ?? ""
        if let origin = request.headers["Origin"], !HTTPHeaders.equal(origin, "http://" + host) {
            return ServerJSON.error(.forbidden, "the admin API refuses requests from other web pages (Origin \(origin))")
        }
        if let token, requiringToken, fromLoopback == false || tokenFromLoopback {
            guard let given = request.headers[Self.tokenHeader], Self.constantTimeEqual(given, token) else {
                return ServerJSON.error(.unauthorized, "the admin API needs the header \(Self.tokenHeader) with the "
                    + "token printed when the server started (or given with --admin-token)")
            }
        }
        return nil
    }

    /// The refusal of a request whose `Host` does not name this machine (the first of the rules above), or
    /// `nil`. Also asked before a request is relayed to a real backend (`--proxy`, `record`): a DNS-rebinding
    /// page must not read the backend through the proxy, which may reach what the page cannot.
    /// - Parameter what: Who refuses, for the message ("the admin API", "the proxy").
    package func hostRefusal(of request: HTTPRequest, for what: String) -> HTTPResponse? {
        guard let host = request.headers["Host"], !host.isEmpty else {
            return ServerJSON.error(.forbidden, "\(what) needs a Host header naming this server")
        }
        // The Host of nearly every request to a local mock, answered without parsing it: the same verdict, sooner.
        if Self.isPlainLoopback(host) { return nil }
        guard let parsed = Self.hostName(host) else {
            return ServerJSON.error(.forbidden, "\(what) refuses a malformed Host header (\(host))")
        }
        let name = Self.normalized(parsed)
        guard Self.isLoopbackName(name) || allowedHosts.contains(name) else {
            return ServerJSON.error(.forbidden, "\(what) answers only requests addressed to this machine "
                + "(Host \(host) is not a loopback name or address); allow a name with --allow-host \(name)")
        }
        return nil
    }

    /// The host of a `Host` header value (`[::1]:8080` → `::1`, `localhost:8080` → `localhost`), or `nil`
    /// when the value is not a host with an optional numeric port: nothing may follow `]` but a port,
    /// and an unbracketed name holds only letters, digits, `.`, `-` and `_`.
    static func hostName(_ value: String) -> String? {
        let host: Substring
        let port: Substring?
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            host = value[value.index(after: value.startIndex)..<close]
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || rest.first == ":" else { return nil }
            port = rest.isEmpty ? nil : rest.dropFirst()
            guard host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard host.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }) else { return nil }
        }
        if let port, port.isEmpty || port.count > 5 || !port.allSatisfy(\.isNumber) { return nil }
        return host.isEmpty ? nil : String(host)
    }

    /// Whether `value` is `127.0.0.1` or `localhost`, with or without a port of one to five ASCII digits: a Host that
    /// ``hostName(_:)`` and ``isLoopbackName(_:)`` would let through.
    static func isPlainLoopback(_ value: String) -> Bool {
        var value = value
        // On the bytes in place, against names made once: on the proxy's path, for every request.
        return value.withUTF8 { bytes in
            let name = plainLoopbackNames.first { bytes.count >= $0.count && bytes.starts(with: $0) }
            guard let name else { return false }
            let rest = UnsafeBufferPointer(rebasing: bytes[name.count...])
            guard let colon = rest.first else { return true }
            let port = rest.dropFirst()
            return colon == UInt8(ascii: ":") && (1...5).contains(port.count)
                && port.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
    }

    private static let plainLoopbackNames = [Array("127.0.0.1".utf8), Array("localhost".utf8)]

    static func isLoopbackName(_ name: String) -> Bool {
        name == "localhost" || name.hasSuffix(".localhost") || POSIX.isLoopbackAddress(name)
    }

    /// Whether `host` (as given to `--host`) is a loopback address or name.
    package static func isLoopbackHost(_ host: String) -> Bool {
        isLoopbackName(normalized(hostName(host) ?? host))
    }

    static func normalized(_ name: String) -> String {
        var name = name.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// Compares every byte whatever the first difference, so timing does not tell how much matched.
    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<min(x.count, y.count) { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
