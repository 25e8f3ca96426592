import ContractModel
import HTTPCore

/// Replaces secret values before anything reaches a file: in JSON, the value of every member whose key
/// is `access_token`, `refresh_token`, `id_token`, `password`, `secret`, `api_key` or one of
/// ``RecordingWriter/Redaction/keys`` (case-insensitive, at any depth, whatever the value's type); in a
/// form body (`a=1&password=x`), the value of such a field.
struct SecretRedactor {
    static let defaultKeys: Set<String> = ["access_token", "refresh_token", "id_token", "password", "secret", "api_key"]
    /// What a secret value becomes.
    static let placeholder = "<redacted>"

    private let keys: Set<String>

    init(extraKeys: [String]) {
        keys = Self.defaultKeys.union(extraKeys.map { $0.lowercased() })
    }

    func isSecret(_ key: String) -> Bool { keys.contains(key.lowercased()) }

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
