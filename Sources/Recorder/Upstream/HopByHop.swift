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

    /// The head a client gets for a response whose fields are `lines`, written from their bytes: the status line, the
    /// end-to-end fields as the target sent them (what ``endToEnd(_:alsoDropping:)`` keeps), and ``via(after:)``'s
    /// field. `nil` when a name or value holds bytes a head may not carry: the encoder's field-by-field path filters
    /// those.
    static func relayedHead(_ status: HTTPStatus, _ lines: FieldLines, alsoDropping extra: [String]) -> [UInt8]? {
        // The names `Connection` fields list are dropped too (RFC 9110 §7.6.1): kept as strings only when they name
        // more than the hop-by-hop fields dropped anyway (`keep-alive`), or `close`.
        var named: [String] = []
        for index in lines.spans.indices where lines.isNamed(index, "connection") {
            for range in lines.elementRanges(index) where !ordered.contains(where: { lines.equals(range, $0) }) {
                named.append(String(decoding: lines.bytes[range], as: UTF8.self).lowercased())
            }
        }
        var head = HTTPResponseEncoder.statusAndFields(status, [])
        head.reserveCapacity(head.count + lines.bytes.count + 4 * lines.spans.count + 32)
        var earlierVia: [ArraySlice<UInt8>] = []
        for (index, span) in lines.spans.enumerated() {
            if lines.isNamed(index, "via") { earlierVia.append(lines.value(index)) }
            if lines.isNamed(index, oneOf: ordered) || lines.isNamed(index, oneOf: extra) || lines.isNamed(index, oneOf: named) {
                continue
            }
            let name = lines.bytes[span.name]
            let value = lines.value(index)
            guard name.allSatisfy(HeadParser.isTokenByte), value.allSatisfy(HTTPResponseEncoder.isValueByte) else {
                return nil
            }
            head += name
            head += [UInt8(ascii: ":"), UInt8(ascii: " ")]
            head += value
            head += [13, 10]
        }
        guard earlierVia.allSatisfy({ $0.allSatisfy(HTTPResponseEncoder.isValueByte) }) else { return nil }
        head += Array("Via: ".utf8)
        appendVia(after: earlierVia, to: &head)
        head += [13, 10]
        return head
    }

    /// The `Via` field a proxy sends on: the received one with this hop appended (RFC 9110 §7.6.3).
    static func via(after fields: [(name: String, value: String)]) -> (name: String, value: String) {
        var value: [UInt8] = []
        appendVia(after: fields.lazy.filter { HTTPHeaders.equal($0.name, "Via") }.map(\.value.utf8), to: &value)
        return ("Via", String(decoding: value, as: UTF8.self))
    }

    /// Appends the value of the `Via` field a proxy sends on: the values received (`earlier`, in order), then this hop,
    /// separated by `, ` (RFC 9110 §7.6.3). The one rule for the request's field, the response's and their strings.
    static func appendVia<Value: Collection<UInt8>>(after earlier: some Sequence<Value>, to head: inout [UInt8]) {
        for value in earlier {
            head += value
            head += [UInt8(ascii: ","), UInt8(ascii: " ")]
        }
        head += viaEntry.utf8
    }

    static let viaEntry = "1.1 mock-server"
}
