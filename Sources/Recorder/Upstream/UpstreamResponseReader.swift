import HTTPCore

/// Reads one HTTP/1.x response from bytes as they arrive (RFC 9112): the status line, the header fields, then
/// the body by chunked coding, `Content-Length`, or until the connection closes. Interim (1xx) responses are
/// skipped; a response to HEAD, a 204 and a 304 have no body. Pure: fed bytes, never a socket.
struct UpstreamResponseReader: Sendable {
    private enum State {
        case head
        case length(Int)
        case chunked(ChunkedDecoder)
        case untilClose
    }

    /// The longest response head accepted.
    static let maximumHeadBytes = 64 * 1024

    private let requestMethod: HTTPRequest.Method
    private var state = State.head
    private var buffer: [UInt8] = []
    private var head: (status: Int, reason: String, lines: FieldLines)?

    init(requestMethod: HTTPRequest.Method) {
        self.requestMethod = requestMethod
    }

    /// Whether the status line and header fields are read.
    var hasHead: Bool { head != nil }

    /// Whether the connection may carry another request once the response is complete: an HTTP/1.1 answer whose
    /// body ended by its framing (not by the close), that did not ask to close, and sent nothing after itself.
    private(set) var keepsConnection = false
    /// The status line said HTTP/1.1 (an HTTP/1.0 answer closes unless it asks otherwise: not kept).
    private var isHTTP11 = false

    /// Takes the next bytes; returns the response once it is complete.
    /// - Throws: ``UpstreamFailure/badResponse(_:)`` when the bytes are not a response.
    mutating func feed(_ bytes: some Collection<UInt8>) throws(UpstreamFailure) -> UpstreamResponse? {
        buffer.append(contentsOf: bytes)
        while true {
            switch state {
            case .head:
                guard try readHead() else { return nil }
            case .length(let length):
                guard buffer.count >= length else { return nil }
                keepsConnection = keepsConnection && buffer.count == length
                return response(body: Array(buffer.prefix(length)))
            case .chunked(var decoder):
                let outcome = buffer.withUnsafeBytes { raw in
                    Result { () throws(HTTPParseError) in try decoder.consume(raw).done }
                }
                buffer = []
                guard case .success(let done) = outcome else {
                    if case .failure(let error) = outcome { throw .badResponse("chunked body: \(error.reason)") }
                    return nil
                }
                state = .chunked(decoder)
                return done ? response(body: decoder.body) : nil
            case .untilClose:
                return nil
            }
        }
    }

    // MARK: - Streaming the body on

    /// The status line and header fields, as a response without a body, once they are read.
    var headResponse: UpstreamResponse? { response(body: []) }

    /// The body's length when the head announced one; `nil` for a chunked body or one that ends at the close.
    var announcedBodyLength: Int? {
        if case .length(let length) = state { return length }
        return nil
    }

    /// Takes the next bytes without keeping the body: reads the head if it is complete.
    /// - Returns: Whether the head is read.
    mutating func append(_ bytes: some Collection<UInt8>) throws(UpstreamFailure) -> Bool {
        buffer.append(contentsOf: bytes)
        while case .head = state {
            guard try readHead() else { return false }
        }
        return true
    }

    /// After the head: the body bytes read since the last call, decoded, and whether the body is complete.
    mutating func takeBody() throws(UpstreamFailure) -> (bytes: [UInt8], done: Bool) {
        switch state {
        case .head:
            return ([], false)
        case .length(let remaining):
            let count = min(remaining, buffer.count)
            let bytes = Array(buffer.prefix(count))
            buffer.removeFirst(count)
            state = .length(remaining - count)
            guard remaining == count else { return (bytes, false) }
            keepsConnection = keepsConnection && buffer.isEmpty
            return (bytes, true)
        case .chunked(var decoder):
            let outcome = buffer.withUnsafeBytes { raw in
                Result { () throws(HTTPParseError) in try decoder.consume(raw).done }
            }
            buffer = []
            switch outcome {
            case .failure(let error): throw .badResponse("chunked body: \(error.reason)")
            case .success(let done):
                let bytes = decoder.takeBody()
                state = .chunked(decoder)
                return (bytes, done)
            }
        case .untilClose:
            var bytes: [UInt8] = []
            swap(&bytes, &buffer)
            return (bytes, false)
        }
    }

    /// The connection closed while a body was streamed: fine for a body that ends at the close, else the reason it
    /// is incomplete.
    func finishStreaming() throws(UpstreamFailure) {
        switch state {
        case .untilClose: return
        case .head: throw .badResponse("closed in the middle of the response head")
        case .length(let remaining): throw .badResponse("closed with \(remaining) body bytes still to come")
        case .chunked: throw .badResponse("closed before the last chunk")
        }
    }

    /// The connection closed: the response if its end was the close, else the reason it is incomplete.
    mutating func finish() throws(UpstreamFailure) -> UpstreamResponse {
        switch state {
        case .head where buffer.isEmpty && head == nil:
            throw .connectionReset("closed before sending a response")
        case .head:
            throw .badResponse("closed in the middle of the response head")
        case .length(let length):
            throw .badResponse("closed after \(buffer.count) of \(length) body bytes")
        case .chunked:
            throw .badResponse("closed before the last chunk")
        case .untilClose:
            guard let response = response(body: buffer) else { throw .badResponse("no response head") }
            return response
        }
    }

    // MARK: - Head

    /// Reads a head if the buffer holds one, and chooses how the body ends. `false`: more bytes are needed.
    private mutating func readHead() throws(UpstreamFailure) -> Bool {
        guard let end = headEnd() else {
            guard buffer.count <= Self.maximumHeadBytes else {
                throw .badResponse("the response head exceeds \(Self.maximumHeadBytes / 1024) KiB")
            }
            return false
        }
        // Read on bytes, each line once: a relayed response's head is parsed on the proxy's busiest path.
        var lines = FieldLines()
        var status = 0
        var reason = ""
        try buffer.withUnsafeBufferPointer { (all) throws(UpstreamFailure) in
            let head = UnsafeBufferPointer(rebasing: all[..<end.start])
            var lineStart = 0
            var first = true
            while lineStart <= head.count {
                let newline = head[lineStart...].firstIndex(of: 10) ?? head.count
                var line = UnsafeBufferPointer(rebasing: head[lineStart..<newline])
                if line.last == 13 { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
                lineStart = newline + 1
                if first {
                    first = false
                    (status, reason) = try Self.statusLine(line)
                    isHTTP11 = Self.hasPrefix(line, "HTTP/1.1 ")
                    continue
                }
                guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon != 0,
                      !line[..<colon].contains(where: Self.isSpace) else {
                    throw .badResponse("malformed header line \"\(String(decoding: line, as: UTF8.self).prefix(80))\"")
                }
                var valueStart = colon + 1
                var valueEnd = line.count
                while valueStart < valueEnd, Self.isSpace(line[valueStart]) { valueStart += 1 }
                while valueEnd > valueStart, Self.isSpace(line[valueEnd - 1]) { valueEnd -= 1 }
                lines.append(name: UnsafeBufferPointer(rebasing: line[..<colon]),
                             value: UnsafeBufferPointer(rebasing: line[valueStart..<valueEnd]))
            }
        }
        buffer.removeFirst(end.afterward)
        // An interim response: the final one follows on the same connection.
        if (100...199).contains(status) {
            guard status != 101 else { throw .badResponse("the target switched protocols (101), which a proxy of HTTP cannot relay") }
            return true
        }
        head = (status, reason, lines)
        state = try bodyFraming(status: status, lines: lines)
        let closes = lines.spans.indices.contains { index in
            lines.isNamed(index, "connection") && lines.lists(index, "close")
        }
        if case .untilClose = state { keepsConnection = false } else { keepsConnection = isHTTP11 && !closes }
        return true
    }

    /// Where the head ends: the index of its blank line, and how many bytes the head takes with it.
    private func headEnd() -> (start: Int, afterward: Int)? {
        var index = 0
        while let newline = buffer[index...].firstIndex(of: 10) {
            let next = newline + 1
            if next < buffer.count && buffer[next] == 10 { return (newline, next + 1) }
            if next + 1 < buffer.count && buffer[next] == 13 && buffer[next + 1] == 10 { return (newline, next + 2) }
            if next >= buffer.count || (buffer[next] == 13 && next + 1 >= buffer.count) { return nil }
            index = next
        }
        return nil
    }

    /// The status code and reason phrase of `line`, an HTTP/1.0 or HTTP/1.1 status line.
    private static func statusLine(_ line: UnsafeBufferPointer<UInt8>) throws(UpstreamFailure) -> (Int, String) {
        // "HTTP/1.x" SP 3DIGIT, then SP and the reason (which may be empty), or the end of the line.
        let digits = line.count >= 12 ? Array(line[9..<12]) : []
        guard hasPrefix(line, "HTTP/1.1 ") || hasPrefix(line, "HTTP/1.0 "), digits.count == 3,
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              line.count == 12 || line[12] == UInt8(ascii: " ") else {
            throw .badResponse("malformed status line \"\(String(decoding: line, as: UTF8.self).prefix(80))\"")
        }
        let status = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard (100...599).contains(status) else {
            throw .badResponse("malformed status line \"\(String(decoding: line, as: UTF8.self).prefix(80))\"")
        }
        // A reason phrase is text for people (RFC 9112 §4): control characters (a bare CR) never reach the client.
        let text = line.count > 13 ? String(decoding: UnsafeBufferPointer(rebasing: line[13...]), as: UTF8.self) : ""
        let reason = text.unicodeScalars.allSatisfy(isReasonCharacter) ? text
            : String(String.UnicodeScalarView(text.unicodeScalars.filter(isReasonCharacter)))
        return (status, reason)
    }

    private static func isReasonCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.value >= 0x20 && scalar.value != 0x7F
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func hasPrefix(_ line: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard line.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { expected in expected.indices.allSatisfy { line[$0] == expected[$0] } }
    }

    private func bodyFraming(status: Int, lines: FieldLines) throws(UpstreamFailure) -> State {
        if requestMethod == .head || status == 204 || status == 304 { return .length(0) }
        let lengthFields = lines.spans.indices.filter { lines.isNamed($0, "content-length") }
        let codingFields = lines.spans.indices.filter { lines.isNamed($0, "transfer-encoding") }
        // The usual head: one Content-Length of plain digits and no Transfer-Encoding, read without splitting.
        if codingFields.isEmpty, lengthFields.count == 1, let length = Self.digits(lines.value(lengthFields[0])) {
            return .length(length)
        }
        let codings = codingFields.flatMap { lines.elements($0) }
        if let last = codings.last {
            // Only chunked ends a coded body; anything else runs to the close (RFC 9112 §6.3).
            guard last == "chunked" else { return .untilClose }
            var limits = HTTPLimits()
            limits.bodyBytes = Int(Int32.max)
            return .chunked(ChunkedDecoder(limits: limits))
        }
        let lengths = Set(lengthFields.flatMap { index in
            lines.value(index).split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self).trimmingSpaces() }
        })
        guard let text = lengths.first else { return .untilClose }
        guard lengths.count == 1, let length = Int(text), length >= 0 else {
            throw .badResponse("invalid Content-Length \"\(lengths.sorted().joined(separator: ", "))\"")
        }
        return .length(length)
    }

    /// `bytes` as a decimal number when they are nothing but ASCII digits (at most 18 of them); else `nil`.
    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard (1...18).contains(bytes.count) else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private func response(body: [UInt8]) -> UpstreamResponse? {
        head.map { UpstreamResponse(status: $0.status, reason: $0.reason, lines: $0.lines, body: body) }
    }
}
