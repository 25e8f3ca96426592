import ContractModel

/// Finds the contract endpoint of a request by method and path template.
struct Router: Sendable {
    enum Match {
        case endpoint(ContractEndpoint, parameters: [String: String])
        /// The path exists, but not for this method; `allow` lists the methods that do.
        case methodNotAllowed(allow: [String])
        case notFound
    }

    private let endpoints: [ContractEndpoint]

    /// Endpoints with more literal segments are tried first, so `/question/today` wins over
    /// `/question/{index}` whatever the order in the contract files.
    init(endpoints: [ContractEndpoint]) {
        self.endpoints = endpoints.enumerated().sorted { lhs, rhs in
            let left = lhs.element.path.parameterNames.count
            let right = rhs.element.path.parameterNames.count
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// - Parameter segments: The percent-decoded path segments (see ``PercentDecoding``).
    func match(method: String, segments: [String]) -> Match {
        var allowed: [String] = []
        for endpoint in endpoints {
            guard let parameters = endpoint.path.match(segments) else { continue }
            if endpoint.method == method || (method == "HEAD" && endpoint.method == "GET") {
                return .endpoint(endpoint, parameters: parameters)
            }
            for allow in endpoint.method == "GET" ? ["GET", "HEAD"] : [endpoint.method] where !allowed.contains(allow) {
                allowed.append(allow)
            }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allow: allowed)
    }
}

/// Percent-decoding of request paths and queries (RFC 3986 §2.1), on bytes rather than Characters.
enum PercentDecoding {
    /// The path split into decoded segments, or `nil` for a malformed escape.
    ///
    /// Splitting happens before decoding, so `%2F` stays inside its segment and can never add a level.
    static func segments(of path: Substring) -> [String]? {
        var segments: [String] = []
        for part in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
            guard let decoded = decode(part) else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    /// The query's `name=value` pairs, decoded. A `+` stays a `+`: clients that mean a space send `%20`.
    static func queryItems(_ query: Substring?) -> [(name: String, value: String)]? {
        guard let query, !query.isEmpty else { return [] }
        var items: [(String, String)] = []
        for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
            let separator = pair.firstIndex(of: UInt8(ascii: "="))
            guard let name = decode(pair[..<(separator ?? pair.endIndex)]) else { return nil }
            var value = ""
            if let separator {
                guard let decoded = decode(pair[pair.index(after: separator)...]) else { return nil }
                value = decoded
            }
            items.append((name, value))
        }
        return items
    }

    static func decode(_ text: Substring) -> String? { decode(text.utf8[...]) }

    static func decode(_ bytes: Substring.UTF8View.SubSequence) -> String? {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(Substring(bytes)) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else {
                return nil
            }
            decoded.append(high << 4 | low)
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
