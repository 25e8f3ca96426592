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
        var dropped = names.union(extra)
        for field in fields where field.name.lowercased() == "connection" {
            for token in field.value.split(separator: ",") { dropped.insert(token.trimmingSpaces().lowercased()) }
        }
        return fields.filter { !dropped.contains($0.name.lowercased()) }
    }

    /// The `Via` field a proxy sends on: the received one with this hop appended (RFC 9110 §7.6.3).
    static func via(after fields: [(name: String, value: String)]) -> (name: String, value: String) {
        let earlier = fields.filter { HTTPHeaders.equal($0.name, "Via") }.map(\.value)
        return ("Via", (earlier + [viaEntry]).joined(separator: ", "))
    }

    static let viaEntry = "1.1 mock-server"
}
