import HTTPCore

/// Keeps secrets out of the journal: the values of credential headers are stored as their scheme and
/// length (`Bearer <redacted, 36 bytes>`), so a test can still assert that a token was sent, but the
/// admin API and the dashboard never show it.
struct HeaderRedaction: Sendable {
    static let defaultNames = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]

    private let names: [String]
    /// Bit `n % 64` is set when a secret name has `n` bytes: most fields are told apart by length alone.
    private let lengths: UInt64

    /// - Parameters:
    ///   - extraNames: Further headers to redact (`--redact-header`).
    ///   - enabled: `false` keeps every value as sent (`--journal-secrets`).
    init(extraNames: [String], enabled: Bool) {
        names = enabled ? Self.defaultNames + extraNames : []
        lengths = names.reduce(0) { $0 | HTTPHeaders.lengthBit($1) }
    }

    /// This runs for every journaled request.
    func apply(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        guard !names.isEmpty, let first = fields.firstIndex(where: { isSecret($0.name) }) else { return fields }
        // Copied only when there is something to redact: most requests carry no credential. Field by field:
        // copying the list whole went through the runtime's generic tuple copy.
        var result: [(name: String, value: String)] = []
        result.reserveCapacity(fields.count)
        for index in fields.indices {
            let field = fields[index]
            result.append(index == first || index > first && isSecret(field.name) ? (field.name, Self.redacted(field)) : field)
        }
        return result
    }

    private func isSecret(_ field: String) -> Bool {
        guard lengths & HTTPHeaders.lengthBit(field) != 0 else { return false }
        for name in names where HTTPHeaders.equal(name, field) { return true }
        return false
    }

    /// A secret field's value as journaled; an `Authorization` or `Proxy-Authorization` value keeps its scheme.
    private static func redacted(_ field: (name: String, value: String)) -> String {
        let keepsScheme = HTTPHeaders.equal(field.name, "Authorization") || HTTPHeaders.equal(field.name, "Proxy-Authorization")
        return redacted(field.value, keepingScheme: keepsScheme)
    }

    static func redacted(_ value: String, keepingScheme: Bool) -> String {
        // On the UTF-8 bytes and built in one string: by characters and by interpolation, a bearer token's
        // redaction cost about 2,500 instructions (Tests/Benchmarks/instructions.sh with APP_HEADERS=1).
        let utf8 = value.utf8
        if keepingScheme, let space = utf8.firstIndex(of: UInt8(ascii: " ")) {
            var secret = utf8[utf8.index(after: space)...]
            while secret.first == UInt8(ascii: " ") { secret = secret.dropFirst() }
            var text = String(Substring(utf8[..<space]))
            text.reserveCapacity(text.utf8.count + 32)
            text += " <redacted, "
            text += String(secret.count)
            text += " bytes>"
            return text
        }
        return "<redacted, " + String(utf8.count) + " bytes>"
    }
}
