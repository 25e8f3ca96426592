import HTTPCore
@testable import Recorder
import Testing

/// The head a relayed response gets, written from the target's field lines as bytes, is byte for byte the head the
/// field-by-field path writes (`String` fields through `HopByHop.endToEnd` and the encoder): a differential test over
/// heads with hop-by-hop fields, fields a `Connection` field names, earlier `Via`s, odd case, and bytes that only the
/// field-by-field path may filter.
@Suite(.timeLimit(.minutes(2)))
struct RelayedHeadTests {
    static let heads: [String] = [
        "HTTP/1.1 200 OK\r\nServer: nginx/1.26\r\nDate: Sat, 28 Nov 2026 10:00:00 GMT\r\nContent-Type: application/json\r\n"
            + "Content-Length: 2\r\nLast-Modified: Sat, 28 Nov 2026 09:00:00 GMT\r\nConnection: keep-alive\r\n"
            + "ETag: \"abc\"\r\nAccept-Ranges: bytes\r\n\r\nok",
        "HTTP/1.1 201 Created\r\nconnection: close, X-Secret\r\nX-Secret: s\r\nx-kept: yes\r\nKeep-Alive: timeout=5\r\n"
            + "Content-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nVia: 1.0 first\r\nVIA: 1.1 second\r\nTE: trailers\r\nUpgrade: h2c\r\nTrailer: X\r\n"
            + "Proxy-Connection: keep-alive\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n2\r\nok\r\n0\r\n\r\n",
        "HTTP/1.1 404 \r\nEmpty:\r\nX-Caf\u{E9}: caf\u{E9}\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-Control: a\u{1}b\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nFoo@Bar: 1\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.0 200 Fine\r\nContent-Length: 0\r\nConnection: Keep-Alive, Date\r\nDate: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nConnection: ,x-a ,\tX-B\t,, upgrade\r\nX-A: 1\r\nx-b: 2\r\nX-C: 3\r\nClose: 4\r\n"
            + "Connection: close\r\nContent-Length: 0\r\n\r\n",
    ]

    @Test(arguments: heads)
    func theHeadFromBytes_IsTheHeadFromFields(text: String) throws {
        var reader = UpstreamResponseReader(requestMethod: .get)
        let parsed = try reader.feed(Array(text.utf8))
        let response = try #require(parsed)
        #expect(response.sentLines != nil)
        var fromFields = response
        fromFields.fields = response.fields
        #expect(fromFields.sentLines == nil)
        let fast = UpstreamProxy.relayed(response)
        let slow = UpstreamProxy.relayed(fromFields)
        #expect(String(decoding: fast.head, as: UTF8.self) == String(decoding: slow.head, as: UTF8.self))
        #expect(fast.head == slow.head && fast.body == slow.body && fast.status.code == slow.status.code)
    }

    @Test func theUsualHead_IsWrittenFromBytes() throws {
        var reader = UpstreamResponseReader(requestMethod: .get)
        let response = try #require(try reader.feed(Array(Self.heads[0].utf8)))
        let lines = try #require(response.sentLines)
        #expect(HopByHop.relayedHead(HTTPStatus(200), lines, alsoDropping: ["content-length", "date", "via"]) != nil)
        let head = String(decoding: UpstreamProxy.relayed(response).head, as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\nServer: nginx/1.26\r\nContent-Type: application/json\r\n"))
        #expect(!head.contains("Connection") && !head.contains("Date") && head.hasSuffix("Via: 1.1 mock-server\r\n"))
    }
}
