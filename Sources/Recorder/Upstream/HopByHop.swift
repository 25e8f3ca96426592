import HTTPCore

/// Header fields that describe one connection rather than the message (RFC 9110 §7.6.1): a proxy never
/// forwards them, nor any field the `Connection` field names.
enum HopByHop {
    static let names: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
    ]

    /// `fields` without hop-by-hop fields, those their `Connection` fields name, and `alsoDropping`
    /// (lower-cased names).
    static func endToEnd(_ fields: [(name: String, value: String)], alsoDropping extra: Set<String> = [])
        -> [(name: String, value: String)]
    {
        // Compared in place, ignoring case: no name is lower-cased or hashed unless a `Connection` field names more.
        var named: [String] = []
        for field in fields where HTTPHeaders.equal(field.name, "Connection") {
            for token in field.value.split(separator: ",") { named.append(token.trimmingSpaces()) }
        }
        let dropped = named.isEmpty ? nil : Set(named.map { $0.lowercased() })
        let extraLengths = lengthMask(extra)
        return fields.filter { field in
            // Most names have a length no dropped name has: kept without a comparison.
            let length = field.name.utf8.count
            if length < 64 && (hopByHopLengths | extraLengths) & (1 << length) == 0 && dropped == nil { return true }
            return !ordered.contains { HTTPHeaders.equal(field.name, $0) }
                && !extra.contains { HTTPHeaders.equal(field.name, $0) }
                && dropped?.contains(field.name.lowercased()) != true
        }
    }

    /// ``names`` in a fixed order, for comparing in place.
    private static let ordered = names.sorted()
    /// Bit `n` is set when a hop-by-hop name has `n` bytes.
    private static let hopByHopLengths = lengthMask(names)

    private static func lengthMask(_ names: Set<String>) -> UInt64 {
        names.reduce(0) { mask, name in name.utf8.count < 64 ? mask | 1 << name.utf8.count : mask }
    }

    /// The `Via` field a proxy sends on: the received one with this hop appended (RFC 9110 §7.6.3).
    static func via(after fields: [(name: String, value: String)]) -> (name: String, value: String) {
        let earlier = fields.filter { HTTPHeaders.equal($0.name, "Via") }.map(\.value)
        return ("Via", (earlier + [viaEntry]).joined(separator: ", "))
    }

    static let viaEntry = "1.1 mock-server"
}
