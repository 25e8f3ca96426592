/// Parses a request line and header section (without the final empty line) into a request.
struct HeadParser {
    let bytes: UnsafeRawBufferPointer
    let limits: HTTPLimits

    func parse() throws(HTTPParseError) -> HTTPRequest {
        var lines = try splitLines()
        guard !lines.isEmpty else { throw .bad("empty request") }
        let requestLine = lines.removeFirst()
        guard requestLine.count <= limits.requestLineBytes else {
            throw HTTPParseError(.uriTooLong, "request line exceeds \(limits.requestLineBytes) bytes")
        }
        guard lines.count <= limits.headerCount else {
            throw HTTPParseError(.headerFieldsTooLarge, "more than \(limits.headerCount) header fields")
        }
        guard bytes.count - requestLine.count <= limits.headerBytes else {
            throw HTTPParseError(.headerFieldsTooLarge, "header section exceeds \(limits.headerBytes) bytes")
        }
        var request = try parseRequestLine(requestLine)
        for line in lines {
            let (name, value) = try parseField(line)
            request.headers.append(name: name, value: value)
        }
        try checkHost(request)
        return request
    }

    private func splitLines() throws(HTTPParseError) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 13 {
                guard index + 1 < bytes.count, bytes[index + 1] == 10 else { throw .bad("bare CR in header section") }
                lines.append(start..<index)
                index += 2
                start = index
                continue
            }
            if byte == 10 { throw .bad("bare LF in header section") }
            index += 1
        }
        lines.append(start..<bytes.count)
        return lines
    }

    private func parseRequestLine(_ range: Range<Int>) throws(HTTPParseError) -> HTTPRequest {
        let line = bytes[range]
        let parts = line.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw .bad("malformed request line")
        }
        guard parts[0].allSatisfy(Self.isTokenByte) else { throw .bad("malformed method") }
        guard parts[1].allSatisfy({ $0 > 32 && $0 < 127 }) else { throw .bad("malformed request target") }
        let version = try parseVersion(parts[2])
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)
        let (path, query) = try Self.splitTarget(target, method: method)
        return HTTPRequest(method: method, target: target, path: path, query: query, version: version,
                           headers: HTTPHeaders(), body: [])
    }

    private func parseVersion(_ bytes: Slice<UnsafeRawBufferPointer>) throws(HTTPParseError) -> HTTPVersion {
        let text = Array(bytes)
        guard text.count == 8, text.starts(with: Array("HTTP/".utf8)), text[6] == UInt8(ascii: "."),
              (48...57).contains(text[5]), (48...57).contains(text[7])
        else { throw .bad("malformed HTTP version") }
        guard text[5] == UInt8(ascii: "1"), text[7] <= UInt8(ascii: "1") else {
            throw HTTPParseError(.versionNotSupported, "only HTTP/1.0 and HTTP/1.1 are supported")
        }
        return text[7] == UInt8(ascii: "1") ? .http11 : .http10
    }

    /// Origin-form, absolute-form (`http://host/path`) or `*` for OPTIONS (RFC 9112 §3.2).
    private static func splitTarget(_ target: String, method: String) throws(HTTPParseError)
        -> (Substring, Substring?)
    {
        var pathAndQuery = Substring(target)
        if target == "*" {
            guard method == "OPTIONS" else { throw .bad("* is only valid for OPTIONS") }
            return ("*", nil)
        }
        if !target.hasPrefix("/") {
            let lower = target.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                throw .bad("request target must start with / or http://")
            }
            guard let colon = target.firstIndex(of: ":") else { throw .bad("malformed absolute target") }
            let afterScheme = target[target.index(colon, offsetBy: 3)...]
            let pathStart = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            guard pathStart != afterScheme.startIndex else { throw .bad("absolute target without a host") }
            pathAndQuery = afterScheme[pathStart...]
            if pathAndQuery.isEmpty || pathAndQuery.first == "?" { pathAndQuery = "/" + pathAndQuery }
        }
        guard let mark = pathAndQuery.firstIndex(of: "?") else { return (pathAndQuery, nil) }
        return (pathAndQuery[..<mark], pathAndQuery[pathAndQuery.index(after: mark)...])
    }

    private func parseField(_ range: Range<Int>) throws(HTTPParseError) -> (String, String) {
        let line = bytes[range]
        guard let first = line.first else { throw .bad("empty header line") }
        if first == 32 || first == 9 { throw .bad("obsolete line folding is not allowed") }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .bad("header line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty else { throw .bad("empty header name") }
        guard name.allSatisfy(Self.isTokenByte) else {
            throw .bad(name.last == 32 || name.last == 9 ? "whitespace before a header colon" : "malformed header name")
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == 32 || byte == 9 { value = value.dropFirst() }
        while let byte = value.last, byte == 32 || byte == 9 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
            throw .bad("control character in header value")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    private func checkHost(_ request: HTTPRequest) throws(HTTPParseError) {
        let hosts = request.headers.values("host")
        guard hosts.count <= 1 else { throw .bad("more than one Host header") }
        if request.version == .http11 && hosts.isEmpty { throw .bad("HTTP/1.1 request without a Host header") }
    }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
