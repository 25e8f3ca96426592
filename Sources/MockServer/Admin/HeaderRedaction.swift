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
        // Copied only when there is something to redact: most requests carry no credential.
        var result = fields
        for index in first..<fields.count where isSecret(fields[index].name) {
            let name = fields[index].name
            let keepsScheme = HTTPHeaders.equal(name, "Authorization") || HTTPHeaders.equal(name, "Proxy-Authorization")
            result[index].value = Self.redacted(fields[index].value, keepingScheme: keepsScheme)
        }
        return result
    }

    private func isSecret(_ field: String) -> Bool {
        guard lengths & HTTPHeaders.lengthBit(field) != 0 else { return false }
        for name in names where HTTPHeaders.equal(name, field) { return true }
        return false
    }

    static func redacted(_ value: String, keepingScheme: Bool) -> String {
        if keepingScheme, let space = value.firstIndex(of: " ") {
            let scheme = value[..<space]
            let secret = value[value.index(after: space)...].drop { $0 == " " }
            return "\(scheme) <redacted, \(secret.utf8.count) bytes>"
        }
        return "<redacted, \(value.utf8.count) bytes>"
    }
}
