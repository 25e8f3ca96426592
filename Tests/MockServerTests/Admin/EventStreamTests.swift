import Dispatch
import Foundation
@testable import HTTPCore
@testable import MockServer
import TestSupport
import Testing

/// `GET /__mock/events`: the journal as server-sent events over chunked transfer coding, read off a raw
/// socket the way a browser's EventSource would, including readers that are slow or stop reading.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct EventStreamTests {
    @Test func everyJournaledRequest_IsAnEvent_InOrder_WithItsSequenceAsID() async throws {
        try await withServer { server in
            let reader = try EventStreamReader(port: server.port)
            #expect(reader.head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(reader.head.contains("Content-Type: text/event-stream; charset=utf-8\r\n"))
            #expect(reader.head.contains("Transfer-Encoding: chunked\r\n"))
            #expect(reader.head.contains("Cache-Control: no-store\r\n"))
            let client = try RawClient(port: server.port)
            for index in 0..<50 {
                #expect(try client.get(index.isMultiple(of: 2) ? "/healthChecker" : "/api/products/1").status == 200)
            }
            var events: [EventStreamReader.Event] = []
            for _ in 0..<50 { events.append(try reader.next()) }
            #expect(events.allSatisfy { $0.name == "request" })
            #expect(events.map(\.id) == server.journal.entries().map(\.sequence))
            let entries = try events.map { try JSONDecoder().decode(JournalEntry.self, from: Data($0.data.utf8)) }
            #expect(entries.map(\.endpoint) == (0..<50).map { $0.isMultiple(of: 2) ? "healthCheck" : "productDetail" })
        }
    }

    @Test func slowReader_GetsEveryEvent_InOrder() async throws {
        try await withServer { server in
            let reader = try EventStreamReader(port: server.port)
            let client = try RawClient(port: server.port)
            // Pipelined, so the events are produced much faster than the reader takes them (as many as one turn
            // carries: a larger burst is summarized by a missed event).
            client.send(String(repeating: "GET /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n", count: 50))
            for _ in 0..<50 { #expect(try client.readResponse().status == 200) }
            var ids: [Int?] = []
            for _ in 0..<50 {
                ids.append(try reader.next().id)
                usleep(2_000)
            }
            #expect(ids == server.journal.entries().map(\.sequence))
        }
    }

    /// A reader that stops reading (a frozen tab) is neither dropped nor fed: nothing waits for it in the
    /// server, the mock path goes on, and when it reads again it gets what was on its way, a `missed` event
    /// counting what it lost, and the newest entries, every request accounted for once.
    @Test func readerThatStopsReading_IsToldWhatItMissed_WhileTheServerGoesOn() async throws {
        try await withServer(configure: { $0.eventQueueLimit = 16 * 1024 }) { server in
            let stalled = try EventStreamReader(port: server.port, receiveBuffer: 4096)
            try await waitUntil { server.journal.subscriberCount == 1 }
            // Each event is a few hundred bytes: far more than the socket buffers hold.
            // Off the cooperative pool: under a sanitizer this loop blocks for long.
            let port = server.port
            let answered = try await offThePool {
                let client = try RawClient(port: port)
                var answered = 0
                for _ in 0..<3_000 where try client.get("/healthChecker").status == 200 { answered += 1 }
                return answered
            }
            #expect(answered == 3_000)
            #expect(server.journal.subscriberCount == 1, "a reader that stops reading is not dropped")
            let last = try #require(server.journal.entries().last?.sequence)
            var delivered = 0, missed = 0
            while true {
                let event = try stalled.next()
                if event.name == "missed" {
                    missed += Int(event.data.split(separator: ":").last?.dropLast() ?? "") ?? 0
                } else if event.name == "request" {
                    delivered += 1
                    if event.id == last { break }
                }
            }
            #expect(missed > 0, "delivered \(delivered)")
            #expect(delivered + missed == 3_000)
        }
    }

    /// A request whose reply is delayed shows at once, and again with its duration once the reply went out.
    @Test func delayedReply_IsAnEventAtOnce_ThenAnUpdate() async throws {
        try await withServer { server in
            let reader = try EventStreamReader(port: server.port)
            try await waitUntil { server.journal.subscriberCount == 1 }
            let client = try RawClient(port: server.port)
            client.send("GET /healthChecker HTTP/1.1\r\nHost: a\r\nX-Mock-Scenario: slow\r\n\r\n")
            let first = try reader.next()
            #expect(first.name == "request" && !first.data.contains("durationMs"))
            #expect(try client.readResponse().status == 200)
            let update = try reader.next()
            #expect(update.name == "update" && update.id == nil)
            let entry = try JSONDecoder().decode(JournalEntry.self, from: Data(update.data.utf8))
            #expect(entry.sequence == first.id && (entry.durationMs ?? 0) >= 800)
            #expect(entry.responseHeaders.contains(["X-Mock-Scenario", "slow"]))
        }
    }

    @Test func reconnecting_ResumesAfterLastEventID_AndSaysWhatWasMissed() async throws {
        try await withServer(configure: { $0.journalCapacity = 5 }) { server in
            let client = try RawClient(port: server.port)
            for _ in 0..<10 { _ = try client.get("/healthChecker") }
            let sequences = server.journal.entries().map(\.sequence)
            let first = try #require(sequences.first)
            // Three entries after the last one seen were dropped from the ring: the reader is told so.
            let reader = try EventStreamReader(port: server.port, headers: ["Last-Event-ID": String(first - 4)])
            let missed = try reader.next()
            #expect(missed.name == "missed" && missed.data == #"{"count":3}"#)
            var ids: [Int?] = []
            for _ in 0..<5 { ids.append(try reader.next().id) }
            #expect(ids == sequences)
            // Nothing missed: the kept entries after the one given, then live ones.
            let resumed = try EventStreamReader(port: server.port, target: "/__mock/events?after=\(sequences[2])")
            #expect(try resumed.next().id == sequences[3])
            #expect(try resumed.next().id == sequences[4])
            _ = try client.get("/healthChecker")
            #expect(try resumed.next().id == sequences[4] + 1)
        }
    }

    @Test func badLastEventID_Is400() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let response = try client.get("/__mock/events?after=soon")
            #expect(response.status == 400)
            #expect(response.text.contains("journal sequence number"))
        }
    }

    @Test func head_SendsTheHeadOnly_AndTheConnectionGoesOn() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("HEAD /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try #require(client.readSome().map { String(decoding: $0, as: UTF8.self) })
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n") && head.hasSuffix("\r\n\r\n"))
            #expect(try client.get("/healthChecker").status == 200)
            // The HEAD's stream was cancelled, so the first event after it found nobody to send to.
            #expect(server.journal.subscriberCount == 0)
        }
    }

    @Test func http10Client_GetsABodyDelimitedByTheClose() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /__mock/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            try await waitUntil { server.journal.subscriberCount == 1 }
            _ = try RawClient(port: server.port).get("/healthChecker")
            server.stop()
            let text = String(decoding: client.readToEnd().bytes, as: UTF8.self)
            #expect(!text.contains("Transfer-Encoding"))
            #expect(text.contains("\r\n\r\nretry: 1000\n\nid: "))
        }
    }

    @Test func stoppingTheServer_EndsOpenStreams_WithTheLastChunk() async throws {
        try await withServer { server in
            let reader = try EventStreamReader(port: server.port)
            try await waitUntil { server.journal.subscriberCount == 1 }
            // Stopped from a thread of its own: the test's task blocks in reads, and the cooperative pool may
            // have no other thread free for seconds when the whole suite runs.
            let took = Locked<Duration?>(nil)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let started = ContinuousClock.now
                server.stop()
                took.withValue { $0 = ContinuousClock.now - started }
                done.signal()
            }
            #expect(throws: EventStreamReader.Ended.self) { try reader.next() }
            #expect(reader.sawLastChunk)
            // The reader closes once the body ended, as an EventSource does; the server then goes at once.
            reader.client.finishSending()
            // Waited for off the cooperative pool: Darwin's Dispatch marks `wait` unavailable in async code.
            #expect(try await offThePool { done.wait(timeout: .now() + 10) } == .success)
            #expect(try #require(took.current) < .seconds(1))
        }
    }
}

/// Reads a `GET /__mock/events` stream: the head, then chunked transfer coding (RFC 9112 §7.1), then
/// events separated by blank lines (HTML Living Standard §9.2.6).
final class EventStreamReader {
    struct Event {
        var id: Int?
        var name: String?
        var data = ""
    }

    struct Ended: Error {}

    let client: RawClient
    private(set) var head = ""
    private(set) var sawLastChunk = false
    private var raw: [UInt8] = []
    private var text = ""

    init(port: UInt16, target: String = "/__mock/events", headers: [String: String] = [:],
         receiveBuffer: Int32? = nil) throws {
        client = try RawClient(port: port, receiveBuffer: receiveBuffer)
        var request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        client.send(request + "\r\n")
        while true {
            if let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) {
                head = String(decoding: raw[..<end.upperBound], as: UTF8.self)
                raw.removeSubrange(..<end.upperBound)
                break
            }
            guard let bytes = client.readSome() else { throw Ended() }
            raw += bytes
        }
    }

    /// The next event with a name or data (a bare `retry:` is skipped).
    func next() throws -> Event {
        while true {
            if let end = text.range(of: "\n\n") {
                let block = text[..<end.lowerBound]
                text.removeSubrange(..<end.upperBound)
                var event = Event()
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("id: ") { event.id = Int(line.dropFirst(4)) }
                    if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { event.data += line.dropFirst(6) }
                }
                if event.name != nil || !event.data.isEmpty { return event }
                continue
            }
            if !decodeChunk() {
                guard !sawLastChunk, let bytes = client.readSome() else { throw Ended() }
                raw += bytes
            }
        }
    }

    /// Moves one whole chunk from `raw` into `text`; `false` when none is complete yet.
    private func decodeChunk() -> Bool {
        guard let lineEnd = raw.firstRange(of: [13, 10]),
              let size = Int(String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) else { return false }
        let dataStart = lineEnd.upperBound
        guard raw.count >= dataStart + size + 2 else { return false }
        precondition(raw[dataStart + size] == 13 && raw[dataStart + size + 1] == 10, "chunk not followed by CRLF")
        if size == 0 { sawLastChunk = true }
        text += String(decoding: raw[dataStart..<(dataStart + size)], as: UTF8.self)
        raw.removeSubrange(..<(dataStart + size + 2))
        return true
    }
}
