@testable import HTTPCore
import Testing

/// The bytes of response heads (RFC 9112 §4 status line, §5 field lines; RFC 9110 §8.6 Content-Length),
/// without a socket.
struct HTTPResponseEncoderTests {
    /// The example date of RFC 9110 §5.6.7; the encoder copies whatever it is given.
    private let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)

    private func head(
        _ status: HTTPStatus,
        _ fields: [(name: String, value: String)] = [],
        contentLength: Int = 0,
        keepAlive: Bool = true
    ) -> String {
        let response = HTTPResponse(status: status, headers: fields)
        let bytes = HTTPResponseEncoder.head(response, framing: .length(contentLength), keepAlive: keepAlive, date: date)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Whole heads

    @Test func head_WrittenIntoReusedStorage_IsTheSame_AndLeavesASharedBufferAlone() {
        // GIVEN heads of different lengths (fields and a Content-Length of 1 to 7 digits)
        let responses = [HTTPResponse(status: .ok, headers: [("Content-Type", "application/json")]),
                         HTTPResponse(status: .notFound), HTTPResponse(status: .noContent),
                         HTTPResponse(status: .ok, headers: [("X-Long", String(repeating: "v", count: 300))])]
        let lengths = [0, 7, 1_234_567, 42]
        let fresh = { (index: Int) in
            HTTPResponseEncoder.head(responses[index % 4], framing: .length(lengths[index % 4]), keepAlive: index % 3 != 0,
                                     date: date)
        }
        // WHEN each is written into the storage of the one before, which is still held (as a queued head is)
        var previous = fresh(0)
        for index in 1..<12 {
            let held = previous
            let reused = HTTPResponseEncoder.head(responses[index % 4], framing: .length(lengths[index % 4]),
                                                  keepAlive: index % 3 != 0, date: date, reusing: previous)
            // THEN it equals a head written into new storage, and the held head is unchanged
            #expect(reused == fresh(index))
            #expect(held == fresh(index - 1))
            previous = reused
        }
        // AND written into storage no one else holds, grown and shrunk in place, each equals a fresh head too
        var unique = fresh(0)
        for index in 1..<12 {
            let (before, room) = unique.withUnsafeBufferPointer { ($0.baseAddress, unique.capacity) }
            unique = HTTPResponseEncoder.head(responses[index % 4], framing: .length(lengths[index % 4]),
                                              keepAlive: index % 3 != 0, date: date, reusing: consume unique)
            #expect(unique == fresh(index))
            // In place: the same storage whenever it had room.
            if unique.count <= room { #expect(unique.withUnsafeBufferPointer { $0.baseAddress } == before) }
        }
    }

    @Test func head_OnAKeptAliveConnection_IsStatusLineFieldsFramingAndEmptyLine() {
        // GIVEN a 200 with one field and a two-byte body
        // WHEN its head is encoded for a connection that stays open
        let text = head(.ok, [("Content-Type", "text/plain")], contentLength: 2, keepAlive: true)
        // THEN every line ends in CRLF and an empty line ends the head
        #expect(text == "HTTP/1.1 200 OK\r\n"
                + "Content-Type: text/plain\r\n"
                + "Content-Length: 2\r\n"
                + "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                + "Connection: keep-alive\r\n"
                + "\r\n")
    }

    @Test func head_OnAClosingConnection_SaysConnectionClose() {
        let text = head(.notFound, [("Content-Type", "application/json")], contentLength: 15, keepAlive: false)
        #expect(text == "HTTP/1.1 404 Not Found\r\n"
                + "Content-Type: application/json\r\n"
                + "Content-Length: 15\r\n"
                + "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                + "Connection: close\r\n"
                + "\r\n")
    }

    @Test func statusLine_AlwaysCarriesAReasonPhrase() {
        #expect(head(HTTPStatus(418)).hasPrefix("HTTP/1.1 418 I'm a teapot\r\n"))
        #expect(head(HTTPStatus(299)).hasPrefix("HTTP/1.1 299 Success\r\n"))
        #expect(head(HTTPStatus(503, "Down for maintenance")).hasPrefix("HTTP/1.1 503 Down for maintenance\r\n"))
    }

    @Test func addedFields_FollowThePreparedOnes_BeforeTheFraming() {
        let response = HTTPResponse(status: .ok, headers: [("A", "1")]).adding([("B", "2")])
        let text = String(decoding: HTTPResponseEncoder.head(response, framing: .length(0), keepAlive: true,
                                                                 date: date),
                          as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nContent-Length: 0\r\n"))
    }

    // MARK: - Streams and messages

    /// RFC 9112 §7.1: a body produced as it goes is chunked; each chunk is its size in hex, CRLF, the data,
    /// CRLF; a zero-size chunk and an empty trailer section end it.
    @Test func streamedHead_SaysChunked_AndChunksAreFramedInHex() {
        let response = HTTPResponse(status: .ok, headers: [("Content-Type", "text/event-stream")])
        let text = String(decoding: HTTPResponseEncoder.head(response, framing: .chunked, keepAlive: true, date: date),
                          as: UTF8.self)
        #expect(text.contains("\r\nTransfer-Encoding: chunked\r\n") && !text.contains("Content-Length"))
        #expect(HTTPResponseEncoder.chunkHead(255) == Array("ff\r\n".utf8))
        #expect(HTTPResponseEncoder.chunkHead(1) == Array("1\r\n".utf8))
        #expect(HTTPResponseEncoder.lastChunk == Array("0\r\n\r\n".utf8))
    }

    /// RFC 9112 §6.3: without length or chunking, the body ends with the connection (HTTP/1.0 streams).
    @Test func headOfABodyEndingWithTheClose_HasNoFraming() {
        let response = HTTPResponse(status: .ok)
        let text = String(decoding: HTTPResponseEncoder.head(response, framing: .untilClose, keepAlive: false, date: date),
                          as: UTF8.self)
        #expect(!text.contains("Content-Length") && !text.contains("Transfer-Encoding"))
        #expect(text.hasSuffix("Connection: close\r\n\r\n"))
    }

    /// RFC 9110 §9.3.2 and §15.4.5: HEAD and 304 announce the length GET would have had; no body follows.
    @Test func message_LeavesTheBodyOut_ForHEADAnd204And304_ButHEADAnnouncesTheLength() {
        let body = Array("hello".utf8)
        let head = HTTPResponseEncoder.message(HTTPResponse(status: .ok, body: body), keepAlive: true, omitBody: true,
                                               date: date)
        #expect(head.body.isEmpty && String(decoding: head.head, as: UTF8.self).contains("Content-Length: 5\r\n"))
        let get = HTTPResponseEncoder.message(HTTPResponse(status: .ok, body: body), keepAlive: true, omitBody: false,
                                              date: date)
        #expect(get.body == body)
        for code in [101, 204, 304] {
            let message = HTTPResponseEncoder.message(HTTPResponse(status: HTTPStatus(code), body: body), keepAlive: true,
                                                      omitBody: false, date: date)
            #expect(message.body.isEmpty, "\(code) carries no body")
        }
    }

    // MARK: - Content-Length

    /// RFC 9110 §8.6: a server MUST NOT send Content-Length in a 204; a 304 may leave it out. Every other
    /// status announces its length, zero included, so the client knows where the next response starts.
    @Test(arguments: [200, 201, 205, 400, 404, 429, 500, 503])
    func contentLength_IsSent_ForStatusesThatHaveContent(code: Int) {
        #expect(head(HTTPStatus(code), contentLength: 0).contains("\r\nContent-Length: 0\r\n"))
    }

    @Test(arguments: [204, 304])
    func contentLength_IsLeftOut_For204And304(code: Int) {
        let text = head(HTTPStatus(code), contentLength: 12)
        #expect(!text.lowercased().contains("content-length"))
        #expect(text.hasSuffix("\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nConnection: keep-alive\r\n\r\n"))
    }

    /// RFC 9110 §8.6: `Content-Length = 1*DIGIT`, decimal, no sign, no padding.
    @Test(arguments: [(0, "0"), (9, "9"), (10, "10"), (99, "99"), (100, "100"), (1_234_567, "1234567")])
    func contentLength_IsWrittenInDecimal(length: Int, digits: String) {
        #expect(head(.ok, contentLength: length).contains("\r\nContent-Length: \(digits)\r\n"))
    }

    // MARK: - Field lines

    /// RFC 9110 §5.5: CR and LF in a field value are invalid and could start a field of their own.
    @Test func fields_DropCRAndLF_FromNamesAndValues_SoNoValueSplitsTheHead() {
        let bytes = HTTPResponseEncoder.fields([
            ("X-Note\r\nSet-Cookie", "a\r\nSet-Cookie: session=1"),
            ("X-Bare\nLF", "b\rc"),
        ])
        #expect(String(decoding: bytes, as: UTF8.self)
                == "X-NoteSet-Cookie: aSet-Cookie: session=1\r\nX-BareLF: bc\r\n")
    }

    /// RFC 9112 §5: the first `:` ends the name, so a name must hold none.
    @Test func fields_DropColons_FromNames_ButNotFromValues() {
        let bytes = HTTPResponseEncoder.fields([("X:Y", "http://a:1/b")])
        #expect(String(decoding: bytes, as: UTF8.self) == "XY: http://a:1/b\r\n")
    }

    /// RFC 9110 §5.5: "Field values containing CR, LF, or NUL characters are invalid and dangerous".
    /// A contract's header value can hold NUL (JSON `\u0000`).
    @Test func fields_LeaveNoNUL_InValues() {
        let bytes = HTTPResponseEncoder.fields([("X-A", "a\u{0}b")])
        #expect(!bytes.contains(0))
    }

    /// RFC 9110 §5.1: a field name is a token (no spaces, no separators); RFC 9112 §5.1 forbids
    /// whitespace between the name and the colon.
    @Test(arguments: ["X A", "X-A ", "X(A)", "X\tA"])
    func fields_WriteOnlyTokenCharacters_InNames(name: String) {
        let line = String(decoding: HTTPResponseEncoder.fields([(name, "1")]), as: UTF8.self)
        let written = line.prefix { $0 != ":" }
        let tchar = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        #expect(!written.isEmpty && written.allSatisfy(tchar.contains), "\(line.debugDescription)")
    }

    // MARK: - Interim response

    /// RFC 9110 §15.2: a 1xx response is a status line and an empty line, with no content and no
    /// Content-Length.
    @Test func continueHead_IsTheStatusLineAndAnEmptyLine() {
        #expect(String(decoding: HTTPResponseEncoder.continueHead, as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
    }
}
