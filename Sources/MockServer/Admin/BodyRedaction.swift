import ContractModel
import HTTPCore

/// The journal's copy of a request body: at most ``limit`` bytes, with secrets kept out. In JSON and
/// form bodies, the value of every field whose name says it is secret (`password`, `token`, `secret`,
/// `apiKey`, `credential`, in any case and with `_` or `-`) becomes `<redacted, N bytes>`; the names
/// stay, so a test can still assert that a password was sent.
struct BodyRedaction: Sendable {
    /// How much of a body the journal keeps.
    static let limit = 64 * 1024

    /// `false` keeps bodies as sent (`--journal-secrets`).
    let enabled: Bool

    /// The bytes to keep for `request`, and whether they were cut at ``limit``.
    func capture(_ request: HTTPRequest) -> (bytes: [UInt8], truncated: Bool) {
        guard !request.body.isEmpty else { return ([], false) }
        var bytes = request.body
        if enabled {
            let mediaType = BodyValidator.mediaType(of: request.headers["Content-Type"] ?? "")
            if mediaType == "application/json" || mediaType.hasSuffix("+json") {
                bytes = Self.redactingJSON(bytes) ?? bytes
            } else if mediaType == "application/x-www-form-urlencoded" {
                bytes = Self.redactingForm(bytes)
            }
        }
        return Self.cut(bytes)
    }

    /// The bytes to keep of a stream's message: a text message that is JSON has its secrets redacted as a body's.
    func capture(message: WebSocketMessage) -> (bytes: [UInt8], truncated: Bool) {
        switch message {
        case .text(let text):
            let bytes = Array(text.utf8)
            return Self.cut(enabled && bytes.first == UInt8(ascii: "{") ? Self.redactingJSON(bytes) ?? bytes : bytes)
        case .binary(let bytes):
            return Self.cut(bytes)
        }
    }

    /// At most ``limit`` of `bytes`, and whether they were cut.
    private static func cut(_ bytes: [UInt8]) -> (bytes: [UInt8], truncated: Bool) {
        guard bytes.count > Self.limit else { return (bytes, false) }
        // Cut before a UTF-8 continuation byte, never inside a character: a long text body stays text.
        var end = Self.limit
        while end > Self.limit - 3, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return (Array(bytes.prefix(end)), true)
    }

    static func isSecret(_ name: String) -> Bool {
        let folded = name.lowercased().filter { $0 != "_" && $0 != "-" }
        return ["password", "passwd", "secret", "token", "apikey", "credential"].contains { folded.contains($0) }
    }

    /// The document re-encoded with secret values redacted, or `nil` when it has none (or is not JSON):
    /// then the body is kept byte for byte.
    private static func redactingJSON(_ bytes: [UInt8]) -> [UInt8]? {
        guard let document = try? JSONValue.parse(bytes) else { return nil }
        var changed = false
        let redacted = redact(document, changed: &changed)
        return changed ? ServerJSON.encode(redacted) : nil
    }

    private static func redact(_ value: JSONValue, changed: inout Bool) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (key, member) in members {
                if isSecret(key), case .string(let text) = member {
                    result[key] = .string("<redacted, \(text.utf8.count) bytes>")
                    changed = true
                } else {
                    result[key] = redact(member, changed: &changed)
                }
            }
            return .object(result)
        case .array(let items):
            return .array(items.map { redact($0, changed: &changed) })
        default:
            return value
        }
    }

    private static func redactingForm(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let (name, value) = PercentDecoding.queryItems(pair)?.first, isSecret(name),
                  let equals = pair.firstIndex(of: "=") else { return String(pair) }
            return "\(pair[..<equals])=<redacted, \(value.utf8.count) bytes>"
        }
        return Array(pairs.joined(separator: "&").utf8)
    }
}
