import MockProtocol

/// Decides which recorded header fields reach a contract. Dropped: credentials (`Authorization`,
/// `Proxy-Authorization`, `Cookie`, `Set-Cookie` and the names ``RecordingWriter/Redaction`` adds),
/// hop-by-hop fields (RFC 9110 §7.6.1: `Connection`, `Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`,
/// `Transfer-Encoding`, `Upgrade` and every name `Connection` lists), fields that describe the backend or the
/// message rather than the answer (``backendOwn``), the mock server's `X-Mock-…`, and fields a contract cannot
/// hold (a name that is not a token, a value with control characters or bytes that were not UTF-8, a Basic
/// `WWW-Authenticate` challenge, which the contract format refuses).
package struct HeaderFilter {
    static let credentials: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
    private static let hopByHop = Set(hopByHopNames.map { $0.lowercased() })
    /// Response fields a recording never keeps because they belong to the backend or to one message, not to the
    /// answer a mock should give (the mock server sets its own `Content-Length` and `Date`). Shown by `--help`.
    package static let backendOwn = ["Content-Length", "Date", "Server", "Via", "X-Powered-By"]
    private static let hopByHopNames = ["Connection", "Keep-Alive", "Proxy-Connection", "TE", "Trailer",
                                        "Transfer-Encoding", "Upgrade"]
    private static let setByServer = Set(backendOwn.map { $0.lowercased() })

    /// The response fields never recorded, for `--help`.
    package static var notRecorded: String {
        backendOwn.joined(separator: ", ") + "; hop-by-hop fields (RFC 9110 §7.6.1); X-Mock-*"
    }

    private let secret: Set<String>

    init(extraSecrets: [String]) {
        secret = Self.credentials.union(extraSecrets.map { $0.lowercased() })
    }

    /// The response's `Content-Type` (the first one), and the other fields a scenario keeps, by name;
    /// a field sent more than once is joined with `, ` (RFC 9110 §5.3).
    func responseFields(_ fields: [RecordedExchange.Field]) -> (contentType: String?, headers: [String: String]) {
        let listed = Set(fields.filter { $0.name.lowercased() == "connection" }.flatMap {
            $0.value.split(separator: ",").map { String($0).trimmed(of: " \t").lowercased() }
        })
        var contentType: String?
        var kept: [(name: String, value: String)] = []
        for field in fields {
            let name = field.name.lowercased()
            let value = field.value.trimmed(of: " \t")
            guard Self.isToken(field.name), Self.isCleanValue(value) else { continue }
            if name == "content-type" {
                if contentType == nil { contentType = value }
                continue
            }
            if secret.contains(name) || Self.hopByHop.contains(name) || listed.contains(name)
                || Self.setByServer.contains(name) || MockHeader.isMockField(name) { continue }
            if name == "www-authenticate" && value.lowercased().hasPrefix("basic") { continue }
            if let index = kept.firstIndex(where: { $0.name.lowercased() == name }) {
                kept[index].value += ", " + value
            } else {
                kept.append((field.name, value))
            }
        }
        return (contentType, Dictionary(kept, uniquingKeysWith: { first, _ in first }))
    }

    /// Whether `name` (lower case) is a credential or a name the recording was told to keep out.
    func isSecret(_ name: String) -> Bool { secret.contains(name) }

    /// Whether the request carried `Authorization: Bearer <token>` (the token itself is never kept).
    static func hasBearerToken(_ fields: [RecordedExchange.Field]) -> Bool {
        fields.contains { field in
            field.name.lowercased() == "authorization" && field.value.lowercased().hasPrefix("bearer ")
                && field.value.count > 7
        }
    }

    /// The request's first `Content-Type`, if any.
    static func contentType(_ fields: [RecordedExchange.Field]) -> String? {
        fields.first { $0.name.lowercased() == "content-type" }?.value
    }

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    private static func isCleanValue(_ value: String) -> Bool {
        !value.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F || $0 == "\u{FFFD}" }
    }
}
