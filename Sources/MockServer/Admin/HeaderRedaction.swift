/// Keeps secrets out of the journal: the values of credential headers are stored as their scheme and
/// length (`Bearer <redacted, 36 bytes>`), so a test can still assert that a token was sent, but the
/// admin API and the dashboard never show it.
struct HeaderRedaction: Sendable {
    static let defaultNames = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]
    /// Headers whose value starts with an authentication scheme worth keeping.
    private static let schemeNames = ["Authorization", "Proxy-Authorization"]

    private let names: [String]

    /// - Parameters:
    ///   - extraNames: Further headers to redact (`--redact-header`).
    ///   - enabled: `false` keeps every value as sent (`--journal-secrets`).
    init(extraNames: [String], enabled: Bool) {
        names = enabled ? Self.defaultNames + extraNames : []
    }

    func apply(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        guard !names.isEmpty, fields.contains(where: { isSecret($0.name) }) else { return fields }
        return fields.map { field in
            guard isSecret(field.name) else { return field }
            let keepsScheme = Self.schemeNames.contains { HTTPHeaders.equal($0, field.name) }
            return (field.name, Self.redacted(field.value, keepingScheme: keepsScheme))
        }
    }

    private func isSecret(_ name: String) -> Bool {
        names.contains { HTTPHeaders.equal($0, name) }
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
