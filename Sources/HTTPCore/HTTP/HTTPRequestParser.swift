/// An incremental HTTP/1.x request parser (RFC 9112): bytes in, a request, "need more" or an error out.
///
/// Pure: no sockets, no clocks. The caller passes the unconsumed bytes starting at the current
/// request each time more arrive; the parser remembers how far it has scanned, so a request that
/// trickles in byte by byte is still scanned once.
///
/// Rules of the request path in this folder. The parser reads the bytes in place, and each request is parsed into
/// the storage of the connection's last one, written over (``parse(_:into:)``): its head is copied once, into that
/// storage. No string is made for what the last request already had: a header field's name and value only when
/// their bytes are not the ones at the same place in the last request (a connection's first request makes them all),
/// the method only when it changed or is not a common one; the target, its path and its query only when asked for
/// (``HTTPRequest/path``; the request path reads ``HTTPRequest/withPathBytes(_:)`` instead). What another module
/// calls on this path is not generic, or is `@inlinable`, so that no generic call crosses modules unspecialized.
/// Header names are compared as their bytes, in any ASCII case (``HTTPHeaders/equal(_:_:)``,
/// ``HeaderFacts/note(name:value:)``); only a common name the parser knows is compared as a string: the literal it
/// is, with the one the last request left at its place.
/// Measure a change to this path with `Tests/Benchmarks/instructions.sh` before and after; figures go to
/// Tests/Benchmarks/HISTORY.md, not here.
public struct HTTPRequestParser: Sendable {
    /// What ``parse(_:into:)`` found; the request itself is in the storage it was given.
    public enum Step {
        /// A whole request; `consumed` bytes of the buffer belong to it.
        case request(consumed: Int)
        /// The head of a request whose body is open-ended (chunked) or longer than ``HTTPLimits/streamedBodyBytes``,
        /// in the storage given, when ``offersBodies`` is set: `headLength` bytes of the buffer are its head, and
        /// none of its body is read; `length` is the body's, `nil` when chunked. The caller chooses:
        /// ``bufferOfferedBody(of:)`` reads it whole, as any other body (its limit applies), or
        /// ``streamOfferedBody()`` hands it out as it comes (``streamedBody(in:)``).
        case bodyOffered(headLength: Int, length: Int?)
        case needMore
        case failure(HTTPParseError)
    }

    public enum Outcome {
        /// A whole request; `consumed` bytes of the buffer belong to it.
        case request(HTTPRequest, consumed: Int)
        /// ``Step/bodyOffered(headLength:length:)``, with the head.
        case bodyOffered(HTTPRequest, headLength: Int, length: Int?)
        case needMore
        case failure(HTTPParseError)
    }

    /// Small on purpose (no payloads): it is matched on every call. The request whose body is being read and the
    /// chunked decoder live beside it.
    private enum State: Sendable {
        case head(scanned: Int)
        case fixedBody(headLength: Int, length: Int)
        case chunkedBody(headLength: Int, decoded: Int)
        /// A body offered to the caller (``Step/bodyOffered(headLength:length:)``), not yet chosen: of a length, or
        /// chunked. (Two cases, where one with an optional length would make every state a byte larger.)
        case offeredLength(headLength: Int, length: Int)
        case offeredChunks(headLength: Int)
        /// A body handed out as it comes (``streamedBody(in:)``): `remaining` bytes still to come, or chunked.
        case streamedBody(remaining: Int)
        case streamedChunks
    }

    public let limits: HTTPLimits
    /// Whether a long or open-ended body is offered to the caller before it is read
    /// (``Step/bodyOffered(headLength:length:)``), rather than read whole at once.
    public var offersBodies = false
    private var state = State.head(scanned: 0)
    /// The request whose body is awaited, moved out of the caller's storage: the parser holds it, so that
    /// whatever storage the caller passes next (another, if its answer to the last request processed the next
    /// one from within) the body joins the right head.
    private var pending: HTTPRequest?
    private var chunked: ChunkedDecoder?
    /// The storage of the last request answered, for ``parse(_:)``'s next one (see ``recycle(_:)``).
    private var spare = HTTPRequest()

    public init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// Whether the head of the current request has been read and its body is still awaited.
    public var isReadingBody: Bool {
        if case .head = state { return false }
        return true
    }

    /// Whether the current request asked for `100 Continue` before sending its body.
    public var awaitsContinue: Bool {
        guard let pending else { return false }
        return pending.version == .http11 && pending.facts.expectsContinue
    }

    /// Parses from the start of `buffer`, which begins at the current request, into `request`: the storage of
    /// the connection's last request, written over in place (see ``HeadParser/parse(into:)``). While a body is
    /// awaited the parser holds its request, and `request` is left empty. After a failure, `request` holds
    /// whatever was written before it.
    public mutating func parse(_ buffer: UnsafeRawBufferPointer, into request: inout HTTPRequest) -> Step {
        do {
            return try step(buffer, into: &request)
        } catch {
            reset()
            return .failure(error)
        }
    }

    /// ``parse(_:into:)`` into storage of its own (the last recycled request's): for tests, the fuzzer and
    /// callers that keep requests.
    public mutating func parse(_ buffer: UnsafeRawBufferPointer) -> Outcome {
        var request = HTTPRequest()
        swap(&request, &spare)
        switch parse(buffer, into: &request) {
        case .request(let consumed):
            return .request(request, consumed: consumed)
        case .bodyOffered(let headLength, let length):
            return .bodyOffered(request, headLength: headLength, length: length)
        case .needMore:
            // Untouched, or emptied when a body is awaited (its request, with this storage, is in `pending`).
            spare = request
            return .needMore
        case .failure(let error):
            return .failure(error)
        }
    }

    /// Keeps the storage of `request`, answered and no longer needed, for ``parse(_:)``'s next request.
    /// Storage something else still holds (the journal, a delayed reply) is not written into: the next request
    /// then gets its own.
    public mutating func recycle(_ request: consuming HTTPRequest) {
        spare = request
    }

    /// Parses a complete request from a byte array; for tests and the fuzzer.
    public static func parseAll(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits()) -> Outcome {
        var parser = HTTPRequestParser(limits: limits)
        return bytes.withUnsafeBytes { parser.parse($0) }
    }

    private mutating func step(_ buffer: UnsafeRawBufferPointer, into request: inout HTTPRequest)
        throws(HTTPParseError) -> Step
    {
        switch state {
        case .head(let scanned):
            let start = Self.emptyLines(in: buffer)
            guard let (head, headLength) = findHead(buffer, from: start, scanned: scanned) else {
                try checkIncompleteHead(buffer, from: start)
                state = .head(scanned: buffer.count)
                return .needMore
            }
            try HeadParser(bytes: head, limits: limits).parse(into: &request)
            // Nearly every request has no body: answered here.
            guard request.facts.hasTransferEncoding || request.facts.hasContentLength else {
                state = .head(scanned: 0)
                return .request(consumed: headLength)
            }
            return try startBody(of: &request, headLength: headLength, buffer: buffer)
        case .fixedBody(let headLength, let length):
            guard buffer.count >= headLength + length, var held = pending.take() else { return .needMore }
            held.body = Array(UnsafeRawBufferPointer(rebasing: buffer[headLength..<headLength + length]))
            swap(&request, &held)
            reset()
            return .request(consumed: headLength + length)
        case .chunkedBody(let headLength, let decoded):
            return try continueChunked(into: &request, headLength: headLength, decoded: decoded, buffer: buffer)
        case .offeredLength(let headLength, let length):
            // Still the caller's to choose.
            return .bodyOffered(headLength: headLength, length: length)
        case .offeredChunks(let headLength):
            return .bodyOffered(headLength: headLength, length: nil)
        case .streamedBody, .streamedChunks:
            throw .bad("the request's body is being streamed; read it with streamedBody(in:)")
        }
    }

    private mutating func reset() {
        state = .head(scanned: 0)
        pending = nil
        chunked = nil
    }

    // MARK: - Head

    /// The header section (from `start`, after any empty lines) and the length of the head with its final
    /// CRLF CRLF; `nil` when it has not all arrived.
    private func findHead(_ buffer: UnsafeRawBufferPointer, from start: Int, scanned: Int)
        -> (UnsafeRawBufferPointer, Int)?
    {
        guard let end = Self.find(headerEndIn: buffer, from: max(start, scanned - 3)) else { return nil }
        return (UnsafeRawBufferPointer(rebasing: buffer[start..<end]), end + 4)
    }

    /// RFC 9112 §2.2: empty lines before the request line are ignored; how many bytes they take.
    private static func emptyLines(in buffer: UnsafeRawBufferPointer) -> Int {
        var start = 0
        while start + 1 < buffer.count && buffer[start] == 13 && buffer[start + 1] == 10 { start += 2 }
        return start
    }

    /// A head still incomplete must not wait for a CRLF CRLF that cannot come: lines ending in a bare LF
    /// (someone typing into `nc`) are answered with a 400 at once rather than left to time out.
    private func checkIncompleteHead(_ buffer: UnsafeRawBufferPointer, from start: Int) throws(HTTPParseError) {
        if (start..<buffer.count).contains(where: { buffer[$0] == 10 && ($0 == start || buffer[$0 - 1] != 13) }) {
            throw .bad("a line ends in a bare LF; HTTP/1.1 lines end in CRLF (\\r\\n)")
        }
        let lineEnd = (start..<buffer.count).first { buffer[$0] == 10 }
        if lineEnd == nil && buffer.count - start > limits.requestLineBytes {
            throw HTTPParseError(.uriTooLong, "request line exceeds \(limits.requestLineBytes) bytes")
        }
        if buffer.count - start > limits.requestLineBytes + limits.headerBytes {
            throw HTTPParseError(.headerFieldsTooLarge, "header section exceeds \(limits.headerBytes) bytes")
        }
    }

    /// Where the first CR LF CR LF at or after `start` begins: the C library finds each LF, and the three bytes
    /// before it are compared (a head has a few lines: a call for each costs less than a byte-by-byte scan).
    private static func find(headerEndIn buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = max(0, start) + 3
        while index < buffer.count, let lineFeed = POSIX.firstIndex(of: 10, in: buffer, index..<buffer.count) {
            if buffer[lineFeed - 1] == 13 && buffer[lineFeed - 2] == 10 && buffer[lineFeed - 3] == 13 { return lineFeed - 3 }
            index = lineFeed + 1
        }
        return nil
    }

    // MARK: - Body

    private mutating func startBody(of request: inout HTTPRequest, headLength: Int, buffer: UnsafeRawBufferPointer)
        throws(HTTPParseError) -> Step
    {
        let framing = try Self.framing(of: request)
        switch framing {
        case .none:
            state = .head(scanned: 0)
            return .request(consumed: headLength)
        case .length(let length) where offersBodies && length > limits.streamedBodyBytes:
            state = .offeredLength(headLength: headLength, length: length)
            return .bodyOffered(headLength: headLength, length: length)
        case .chunked where offersBodies:
            state = .offeredChunks(headLength: headLength)
            return .bodyOffered(headLength: headLength, length: nil)
        case .length, .chunked:
            try awaitBody(of: &request, framing: framing, headLength: headLength)
            return try step(buffer, into: &request)
        }
    }

    /// Reads the offered body whole, as any other (its limit applies): the next ``parse(_:into:)``, on the buffer
    /// that still begins at the head, goes on with it. `request` is the head that
    /// ``Step/bodyOffered(headLength:length:)`` left.
    public mutating func bufferOfferedBody(of request: inout HTTPRequest) throws(HTTPParseError) {
        let framing: Framing
        let headLength: Int
        switch state {
        case .offeredLength(let head, let length): (framing, headLength) = (.length(length), head)
        case .offeredChunks(let head): (framing, headLength) = (.chunked, head)
        default: return
        }
        do {
            try awaitBody(of: &request, framing: framing, headLength: headLength)
        } catch {
            reset()
            throw error
        }
    }

    /// Hands the offered body out as it comes, through ``streamedBody(in:)`` on the bytes after the head (the caller
    /// consumes the head's `headLength` bytes). Its length is not limited; a chunk's is, by ``HTTPLimits/bodyBytes``.
    public mutating func streamOfferedBody() {
        switch state {
        case .offeredLength(_, let length):
            state = .streamedBody(remaining: length)
        case .offeredChunks:
            state = .streamedChunks
            chunked = ChunkedDecoder(limits: limits)
        default:
            return
        }
    }

    /// The offered body's bytes in `buffer`, which begins where the last call's consumed bytes end: the body's
    /// bytes found (decoded, when chunked), how many bytes of `buffer` they took, and whether the body ended. After
    /// the end (or a failure) the parser reads the next request's head.
    public mutating func streamedBody(in buffer: UnsafeRawBufferPointer)
        throws(HTTPParseError) -> (bytes: [UInt8], consumed: Int, done: Bool) {
        switch state {
        case .streamedBody(let remaining):
            let count = min(remaining, buffer.count)
            let bytes = Array(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            if count == remaining { reset() } else { state = .streamedBody(remaining: remaining - count) }
            return (bytes, count, count == remaining)
        case .streamedChunks:
            guard var decoder = chunked else { return ([], 0, false) }
            chunked = nil
            do {
                let (consumed, done) = try decoder.consume(buffer)
                let bytes = decoder.takeBody()
                if done { reset() } else { chunked = decoder }
                return (bytes, consumed, done)
            } catch {
                reset()
                throw error
            }
        default:
            return ([], 0, true)
        }
    }

    /// Sets out to read the body `framing` announces whole, after the head's `headLength` bytes, holding `request`
    /// (moved, not copied: the caller's storage is left empty, and gets it back with its body).
    private mutating func awaitBody(
        of request: inout HTTPRequest,
        framing: Framing,
        headLength: Int
    ) throws(HTTPParseError) {
        switch framing {
        case .none:
            return
        case .length(let length):
            guard length <= limits.bodyBytes else {
                throw HTTPParseError(.contentTooLarge, "body of \(length) bytes exceeds \(limits.bodyBytes)")
            }
            state = .fixedBody(headLength: headLength, length: length)
        case .chunked:
            state = .chunkedBody(headLength: headLength, decoded: 0)
            chunked = ChunkedDecoder(limits: limits)
        }
        var held = HTTPRequest()
        swap(&held, &request)
        pending = consume held
    }

    private mutating func continueChunked(into request: inout HTTPRequest, headLength: Int, decoded: Int,
                                          buffer: UnsafeRawBufferPointer) throws(HTTPParseError) -> Step
    {
        guard var decoder = chunked, pending != nil else { return .needMore }
        chunked = nil // so the decoder's body is uniquely referenced and grows in place
        let from = headLength + decoded
        let (consumed, done) = try decoder.consume(UnsafeRawBufferPointer(rebasing: buffer[from...]))
        guard done else {
            chunked = decoder
            state = .chunkedBody(headLength: headLength, decoded: decoded + consumed)
            return .needMore
        }
        guard var held = pending.take() else { return .needMore }
        held.body = decoder.body
        swap(&request, &held)
        reset()
        return .request(consumed: from + consumed)
    }

    private enum Framing { case none, length(Int), chunked }

    /// RFC 9112 §6.3, strictly: Transfer-Encoding together with Content-Length is rejected rather than
    /// resolved, since a proxy in front might have framed it the other way (request smuggling).
    private static func framing(of request: HTTPRequest) throws(HTTPParseError) -> Framing {
        guard request.facts.hasTransferEncoding || request.facts.hasContentLength else { return .none }
        let lengths = request.headers.values("content-length")
        if request.facts.hasTransferEncoding {
            let transferCodings = request.headers.tokens("transfer-encoding")
            guard lengths.isEmpty else { throw .bad("both Transfer-Encoding and Content-Length are present") }
            guard request.version == .http11 else { throw .bad("Transfer-Encoding is not allowed in HTTP/1.0") }
            guard transferCodings.last == "chunked" else {
                throw transferCodings.contains("chunked")
                    ? .bad("chunked must be the final transfer coding")
                    : HTTPParseError(.notImplemented, "transfer coding \(transferCodings.joined(separator: ", ")) is not supported")
            }
            guard transferCodings.count == 1 else {
                throw HTTPParseError(.notImplemented, "only the chunked transfer coding is supported")
            }
            return .chunked
        }
        guard !lengths.isEmpty else { return .none }
        var length: Int?
        for value in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let text = value.trimmingSpaces()
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                throw .bad("Content-Length \"\(value)\" is not a number")
            }
            guard text.utf8.count <= 12, let parsed = Int(text) else {
                throw HTTPParseError(.contentTooLarge, "Content-Length \"\(text)\" is too large")
            }
            guard length == nil || length == parsed else { throw .bad("conflicting Content-Length values") }
            length = parsed
        }
        guard let length else { return .none }
        return length == 0 ? .none : .length(length)
    }
}
