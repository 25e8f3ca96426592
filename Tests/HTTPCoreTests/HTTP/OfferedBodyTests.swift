import Foundation
import Testing
@testable import HTTPCore

/// A parser that offers bodies (``HTTPRequestParser/offersBodies``) stops at the head of a long or chunked body and
/// lets its caller choose: read whole, as a parser that offers none reads it, or handed out as it comes, in any split.
struct OfferedBodyTests {
    private let limits = HTTPLimits(bodyBytes: 64, streamedBodyBytes: 16)

    private func offering() -> HTTPRequestParser {
        var parser = HTTPRequestParser(limits: limits)
        parser.offersBodies = true
        return parser
    }

    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private static let long = "POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n" + "abcdefghijklmnopqrst"
    private static let chunked = "POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "3\r\nabc\r\n10;x=y\r\n0123456789abcdef\r\n0\r\nT: 1\r\n\r\n"

    @Test func onlyALongOrChunkedBody_IsOffered() {
        for text in [Self.long, Self.chunked] {
            var parser = offering()
            guard case .bodyOffered(let request, let headLength, let length) = Self.bytes(text).withUnsafeBytes({ parser.parse($0) })
            else { Issue.record("not offered: \(text)"); continue }
            #expect(request.path == "/up" && request.body.isEmpty)
            #expect(Self.bytes(text)[headLength - 4..<headLength] == [13, 10, 13, 10])
            #expect(length == (text == Self.long ? 20 : nil))
        }
        var parser = offering()
        let short = Self.bytes("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 16\r\n\r\n0123456789abcdef")
        guard case .request(let request, _) = short.withUnsafeBytes({ parser.parse($0) }) else {
            Issue.record("a body of the offering length is read whole"); return
        }
        #expect(request.body.count == 16)
        // A parser that offers none reads the long one whole, as before.
        guard case .request(let whole, _) = HTTPRequestParser.parseAll(Self.bytes(Self.long), limits: limits) else {
            Issue.record("not read whole"); return
        }
        #expect(whole.body == Self.bytes("abcdefghijklmnopqrst"))
    }

    /// Chosen to be read whole, the body makes the request a parser that offers none makes; over the limit, it is 413.
    @Test func anOfferedBodyReadWhole_IsTheRequestAsBefore() throws {
        for text in [Self.long, Self.chunked] {
            var parser = offering()
            var request = HTTPRequest()
            let wire = Self.bytes(text)
            guard case .bodyOffered = wire.withUnsafeBytes({ parser.parse($0, into: &request) }) else {
                Issue.record("not offered"); continue
            }
            try parser.bufferOfferedBody(of: &request)
            guard case .request(let consumed) = wire.withUnsafeBytes({ parser.parse($0, into: &request) }) else {
                Issue.record("not read whole: \(text)"); continue
            }
            guard case .request(let expected, let expectedLength) = HTTPRequestParser.parseAll(wire, limits: limits) else {
                Issue.record("the plain parser refused it"); continue
            }
            #expect(consumed == expectedLength && request.body == expected.body && request.path == expected.path)
        }
        var parser = offering()
        var request = HTTPRequest()
        let over = Self.bytes("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 65\r\n\r\n")
        guard case .bodyOffered = over.withUnsafeBytes({ parser.parse($0, into: &request) }) else {
            Issue.record("not offered"); return
        }
        #expect(throws: HTTPParseError(.contentTooLarge, "body of 65 bytes exceeds 64")) {
            try parser.bufferOfferedBody(of: &request)
        }
    }

    /// Streamed, the body comes out whole and alone, however the bytes are split; the next request is read after it.
    @Test func anOfferedBodyStreamed_ComesOutWhole_InAnySplit() throws {
        let next = "GET /next HTTP/1.1\r\nHost: a\r\n\r\n"
        for (text, body) in [(Self.long, "abcdefghijklmnopqrst"), (Self.chunked, "abc0123456789abcdef")] {
            for split in [1, 2, 5, 7, 1000] {
                var parser = offering()
                var request = HTTPRequest()
                let wire = Self.bytes(text + next)
                guard case .bodyOffered(let headLength, _) = wire.withUnsafeBytes({ parser.parse($0, into: &request) })
                else { Issue.record("not offered"); continue }
                parser.streamOfferedBody()
                var offset = headLength
                var out: [UInt8] = []
                var done = false
                while !done {
                    // As a connection does: what it has read and not consumed, growing by `split` bytes per read.
                    var available = min(wire.count, offset + split)
                    var step = try wire[offset..<available].withUnsafeBytes { try parser.streamedBody(in: $0) }
                    while step.consumed == 0 && !step.done && available < wire.count {
                        available = min(wire.count, available + split)
                        step = try wire[offset..<available].withUnsafeBytes { try parser.streamedBody(in: $0) }
                    }
                    out += step.bytes
                    offset += step.consumed
                    done = step.done
                }
                #expect(out == Self.bytes(body), "split \(split)")
                guard case .request(let after, _) = wire[offset...].withUnsafeBytes({ parser.parse($0) }) else {
                    Issue.record("the next request was not read after the body (split \(split))"); continue
                }
                #expect(after.path == "/next")
            }
        }
    }

    @Test func aMalformedChunk_InAStreamedBody_FailsWithTheReason() throws {
        var parser = offering()
        var request = HTTPRequest()
        let wire = Self.bytes(Self.chunked.replacingOccurrences(of: "10;x=y", with: "zz"))
        guard case .bodyOffered(let headLength, _) = wire.withUnsafeBytes({ parser.parse($0, into: &request) }) else {
            Issue.record("not offered"); return
        }
        parser.streamOfferedBody()
        #expect(throws: HTTPParseError.bad("chunk size is not hexadecimal")) {
            _ = try wire[headLength...].withUnsafeBytes { try parser.streamedBody(in: $0) }
        }
    }
}

/// The stream between the connection and the body's consumer: the connection stops at the limit and is told when it
/// may go on; the consumer gets the parts in order, then the end or why there is none.
@Suite(.timeLimit(.minutes(1))) struct RequestBodyStreamTests {
    @Test func partsComeInOrder_ThenTheEnd() {
        let stream = RequestBodyStream(length: 6, limit: 100)
        #expect(stream.append([1, 2, 3]) && stream.append([]) && stream.append([4, 5, 6]))
        stream.finish()
        #expect(stream.next() == .bytes([1, 2, 3]))
        #expect(stream.next() == .bytes([4, 5, 6]))
        #expect(stream.next() == .end)
    }

    @Test func theConnectionStopsAtTheLimit_AndMayGoOnOnceTaken() {
        let stream = RequestBodyStream(length: nil, limit: 4)
        #expect(stream.append([1, 2]))
        #expect(!stream.append([3, 4]), "4 bytes wait: at the limit")
        #expect(!stream.hasRoom)
        #expect(stream.next() == .bytes([1, 2]))
        #expect(stream.hasRoom, "below the limit again")
    }

    @Test func aConsumerWaiting_IsWokenByAPart_OrByTheFailure() {
        let stream = RequestBodyStream(length: nil, limit: 100)
        // On threads of their own: `next()` blocks, and the cooperative pool has few threads to spare.
        func nextAside() -> () -> RequestBodyStream.Part {
            let taken = Locked<RequestBodyStream.Part?>(nil)
            let ended = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let part = stream.next()
                taken.withValue { $0 = part }
                ended.signal()
            }
            return {
                ended.wait()
                return taken.current ?? .end
            }
        }
        let first = nextAside()
        Thread.sleep(forTimeInterval: 0.05)
        _ = stream.append([7])
        #expect(first() == .bytes([7]))
        let second = nextAside()
        Thread.sleep(forTimeInterval: 0.05)
        stream.fail("the client's connection closed")
        #expect(second() == .broken("the client's connection closed"))
        stream.finish()
        #expect(stream.next() == .broken("the client's connection closed"), "a failure is final")
    }

    @Test func aConsumerThatGivesUp_LeavesTheConnectionFreeToReadOn() {
        let stream = RequestBodyStream(length: 10, limit: 2)
        #expect(!stream.append([1, 2, 3]))
        stream.cancel()
        #expect(stream.hasRoom)
        #expect(stream.append([4, 5, 6]), "dropped, and never full")
        #expect(stream.next() == .broken("the body's consumer gave up"))
    }
}
