import HTTPCore
@testable import Recorder
import Testing

/// The upstream response reader, fed byte strings: no socket.
@Suite(.timeLimit(.minutes(2)))
struct UpstreamResponseReaderTests {
    /// Feeds `text` in pieces of `piece` bytes; then, if no response came, tells the reader the connection closed.
    private func read(_ text: String, method: HTTPRequest.Method = "GET", piece: Int = .max, closing: Bool = true)
        throws(UpstreamFailure) -> UpstreamResponse?
    {
        var reader = UpstreamResponseReader(requestMethod: method)
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + min(piece, bytes.count))
            if let response = try reader.feed(bytes[index..<end]) { return response }
            index = end
        }
        return closing ? try reader.finish() : nil
    }

    private func failure(_ text: String, method: HTTPRequest.Method = "GET") -> UpstreamFailure? {
        do {
            _ = try read(text, method: method)
            return nil
        } catch {
            return error
        }
    }

    @Test func reasonPhrase_LosesControlCharacters() throws {
        let response = try #require(try read("HTTP/1.1 200 All\rGood\u{7F}\tnow\r\nContent-Length: 0\r\n\r\n"))
        #expect(response.reason == "AllGood\tnow")
    }

    @Test func body_IsReadToItsContentLength_WhateverFollows() throws {
        let response = try #require(try read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhelloEXTRA", closing: false))
        #expect(response.status == 200 && response.reason == "OK")
        #expect(response.body == Array("hello".utf8))
        #expect(response.fields.contains { $0.name == "X-A" && $0.value == "b" })
    }

    @Test func chunkedBody_IsDecoded_WhenItArrivesByteByByte() throws {
        let text = "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=y\r\n world\r\n0\r\nT: 1\r\n\r\n"
        let response = try #require(try read(text, piece: 1, closing: false))
        #expect(response.status == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello world")
    }

    @Test func bodyWithoutLength_EndsWithTheClose() throws {
        let response = try #require(try read("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end"))
        #expect(String(decoding: response.body, as: UTF8.self) == "to the end")
    }

    @Test func interimResponses_AreSkipped() throws {
        let text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        let response = try #require(try read(text, piece: 7, closing: false))
        #expect(response.status == 200 && response.body == Array("ok".utf8))
        #expect(!response.fields.contains { $0.name == "Link" })
    }

    @Test(arguments: [("HEAD", 200), ("GET", 204), ("GET", 304)])
    func response_HasNoBody_ForHeadAnd204And304(method: String, status: Int) throws {
        let text = "HTTP/1.1 \(status) X\r\nContent-Length: 10\r\n\r\n"
        let response = try #require(try read(text, method: .init(rawValue: method), closing: false))
        #expect(response.status == status && response.body.isEmpty)
    }

    @Test func lineFeedsWithoutCarriageReturns_AreAccepted() throws {
        let response = try #require(try read("HTTP/1.1 200 OK\nContent-Length: 2\n\nok", closing: false))
        #expect(response.body == Array("ok".utf8))
    }

    @Test(arguments: [
        "HELLO GARBAGE\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/2 200 OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ])
    func malformedResponse_IsABadResponse(text: String) {
        guard case .badResponse(let detail)? = failure(text) else {
            Issue.record("expected a bad response for \(text.debugDescription), got \(String(describing: failure(text)))")
            return
        }
        #expect(!detail.isEmpty)
    }

    @Test func closeBeforeAnyByte_IsAReset_AndBeforeTheEndOfTheBody_ABadResponse() {
        #expect(failure("") == .connectionReset("closed before sending a response"))
        #expect(failure("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc") == .badResponse("closed after 3 of 10 body bytes"))
        #expect(failure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab") == .badResponse("closed before the last chunk"))
        #expect(failure("HTTP/1.1 200 OK\r\nX: 1") == .badResponse("closed in the middle of the response head"))
    }

    @Test func endlessHead_IsRefused() {
        let text = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Filler: 0123456789\r\n", count: 4_000)
        guard case .badResponse(let detail)? = failure(text) else {
            Issue.record("an endless head was accepted")
            return
        }
        #expect(detail.contains("exceeds"))
    }

    /// Streaming: the body handed out as it arrives, in any pieces, the same bytes as read whole; its end by framing.
    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world", true),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", true),
        ("HTTP/1.0 200 OK\r\n\r\nhello world", false),
    ])
    func streaming_HandsOutTheBodyAsItArrives(text: String, endsByFraming: Bool) throws {
        for piece in [1, 3, 7, 1000] {
            var reader = UpstreamResponseReader(requestMethod: "GET")
            let bytes = Array(text.utf8)
            var body: [UInt8] = []
            var done = false
            for start in stride(from: 0, to: bytes.count, by: piece) {
                guard try reader.append(bytes[start..<min(start + piece, bytes.count)]) else { continue }
                let (part, ended) = try reader.takeBody()
                body += part
                done = ended
            }
            #expect(reader.headResponse?.status == 200)
            if !endsByFraming {
                #expect(!done)
                try reader.finishStreaming()
            }
            #expect(done == endsByFraming, "piece \(piece)")
            #expect(String(decoding: body, as: UTF8.self) == "hello world", "piece \(piece)")
        }
        // A length-framed body cut short by the close is an error, not an end.
        var cut = UpstreamResponseReader(requestMethod: "GET")
        _ = try cut.append(Array("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello".utf8))
        _ = try cut.takeBody()
        #expect(throws: UpstreamFailure.self) { try cut.finishStreaming() }
    }
}
