import ContractModel
import HTTPCore

/// Replaces secret values before anything reaches a file: in JSON, the value of every member whose key
/// names a secret, at any depth, whatever the value's type; in a form body (`a=1&password=x`), the value
/// of such a field.
///
/// Keys are compared by their letters and digits only, in lower case, so `access_token`, `accessToken`,
/// `Access-Token` and `ACCESSTOKEN` are one key. A key is a secret when that form contains `token`,
/// `secret`, `password`, `passwd`, `apikey`, `authorization`, `cookie`, `credential` or `privatekey`
/// (`refresh_token`, `client_secret`, `x-api-key`, `csrfToken`), or equals one of
/// ``RecordingWriter/Redaction/keys`` so compared. Erring towards redaction costs a placeholder in a
/// fixture; erring the other way leaks a credential into a repository.
struct SecretRedactor {
    static let secretWords = ["token", "secret", "password", "passwd", "apikey", "authorization", "cookie", "credential",
                              "privatekey"]
    /// What a secret value becomes.
    static let placeholder = "<redacted>"

    private let extraKeys: Set<String>

    init(extraKeys: [String]) {
        self.extraKeys = Set(extraKeys.map(Self.normalized))
    }

    func isSecret(_ key: String) -> Bool {
        let key = Self.normalized(key)
        return extraKeys.contains(key) || Self.secretWords.contains { key.contains($0) }
    }

    /// The key's ASCII letters and digits, lower-cased.
    static func normalized(_ key: String) -> String {
        String(String.UnicodeScalarView(key.lowercased().unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }))
    }

    /// `value` with every secret member's value replaced by ``placeholder``.
    func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (key, member) in members {
                result[key] = isSecret(key) ? .string(Self.placeholder) : redact(member)
            }
            return .object(result)
        case .array(let items):
            return .array(items.map(redact))
        default:
            return value
        }
    }

    /// A form-encoded body with the values of secret fields replaced (`password=%3Credacted%3E`); the
    /// rest of the bytes as they were.
    func redactForm(_ bytes: [UInt8]) -> [UInt8] {
        let pairs = bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
        let redacted = pairs.map { pair -> [UInt8] in
            let name = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
            let decoded = PercentDecoding.queryItems(Substring(String(decoding: name, as: UTF8.self)))?.first?.name
            guard let decoded, isSecret(decoded) else { return Array(pair) }
            return Array(name) + Array("=%3Credacted%3E".utf8)
        }
        return Array(redacted.joined(separator: [UInt8(ascii: "&")]))
    }
}
