/// The HTTPS backend the bridge relays to, from `--target https://host[:port][/base]`: the origin and the
/// base path every request path is appended to.
struct BridgeTarget: Equatable, Sendable {
    /// `https://host[:port]`.
    let origin: String
    /// `""` or `/api`, never ending in `/`.
    let basePath: String

    /// - Returns: `nil` unless `text` is `https://` with a host and no query, fragment or credentials.
    init?(parsing text: String) {
        guard text.lowercased().hasPrefix("https://") else { return nil }
        let rest = text.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" }
        guard !authority.isEmpty, !authority.contains("@"), !rest.contains("?"), !rest.contains("#") else { return nil }
        var base = String(rest.dropFirst(authority.count))
        while base.hasSuffix("/") { base.removeLast() }
        origin = "https://" + authority
        basePath = base
    }

    /// The absolute URL for a request target such as `/v1/items?x=1`.
    func url(for requestTarget: String) -> String {
        origin + basePath + (requestTarget.hasPrefix("/") ? requestTarget : "/" + requestTarget)
    }
}
