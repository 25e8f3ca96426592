import Foundation
import MockServer
import Testing
import TestSupport

/// Scenarios with `"events"`: server-sent events at their times over real sockets, a POST answered by a stream
/// that echoes it, resuming after `Last-Event-ID`, and HEAD.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ServerSentEventsTests {
    static let contract = """
        {"domain": "chat", "endpoints": [
          {"id": "ticks", "method": "GET", "path": "/ticks",
           "scenarios": [{"name": "success", "expect": "success", "events": [
             {"data": "one"},
             {"event": "tick", "data": "two", "id": "2", "delayMs": 200},
             {"data": "three\\nlines", "id": "3", "retry": 500, "delayMs": 200}]},
             {"name": "fromFile", "expect": "success", "events": "chat/answer.json", "afterLast": "keepOpen"},
             {"name": "breaks", "expect": "success", "events": [{"data": "one"}, {"data": "two", "delayMs": 50}],
              "afterLast": "reset"},
             {"name": "stalls", "expect": "success", "events": [{"data": "one"}], "afterLast": "stall"}]},
          {"id": "ask", "method": "POST", "path": "/ask",
           "request": {"body": {"type": "json", "fields": {"prompt": "string"}}},
           "scenarios": [{"name": "success", "expect": "success", "template": true, "events": [
             {"data": "you asked: {{body/prompt}}"}, {"event": "done", "data": "{}", "delayMs": 50}]}]}
        ]}
        """

    private func withChat(_ body: (MockServer) async throws -> Void) async throws {
        let folder = try ScratchContracts(contracts: [("chat.json", Self.contract)], fixtures: [
            ("chat/answer.json", #"[{"data": "from a file", "id": "f1"}]"#),
        ])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures, body)
    }

    /// The bytes that arrive on `client` until `end` is among them, each chunk with its arrival time.
    private func read(_ client: RawClient, until end: String) -> [(bytes: String, at: Double)] {
        let started = Date()
        var chunks: [(String, Double)] = []
        var all = ""
        while !all.contains(end), let bytes = client.readSome() {
            let text = String(decoding: bytes, as: UTF8.self)
            all += text
            chunks.append((text, Date().timeIntervalSince(started)))
        }
        return chunks
    }

    @Test func events_GoOutAtTheirTimes_InTheStreamsFormat_ThenTheStreamEnds() async throws {
        try await withChat { server in
            try await offThePool {
                let client = try RawClient(port: server.port, timeout: 5)
                client.send("GET /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                let chunks = read(client, until: "0\r\n\r\n")
                let all = chunks.map(\.bytes).joined()
                #expect(all.hasPrefix("HTTP/1.1 200 OK\r\n") && all.contains("Content-Type: text/event-stream"), "\(all)")
                #expect(all.contains("data: one\n\n"))
                #expect(all.contains("event: tick\nid: 2\ndata: two\n\n"))
                #expect(all.contains("id: 3\nretry: 500\ndata: three\ndata: lines\n\n"))
                // Each event at its time: 0, 200 and 400 ms after the head, within 50 ms
                let at = { (text: String) in chunks.first { $0.bytes.contains(text) }?.at ?? -1 }
                let start = at("data: one")
                #expect(abs(at("data: two") - start - 0.2) < 0.05, "\(chunks.map(\.at))")
                #expect(abs(at("data: three") - start - 0.4) < 0.05, "\(chunks.map(\.at))")
            }
        }
    }

    /// Every event that went out is in the journal after the request that opened the stream, with its bytes.
    @Test func eachEventSent_IsJournaled() async throws {
        try await withChat { server in
            try await offThePool {
                let client = try RawClient(port: server.port, timeout: 5)
                client.send("GET /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Mock-Session: feed-1\r\n\r\n")
                _ = read(client, until: "0\r\n\r\n")
            }
            try await waitUntil { server.journal.entries().filter { $0.message?.kind == .event }.count == 3 }
            let entries = server.journal.entries()
            #expect(entries.first?.status == 200)
            let events = entries.filter { $0.message?.kind == .event }
            #expect(events.allSatisfy { $0.message?.direction == .sent && $0.session == "feed-1" && $0.endpoint == "ticks" })
            #expect(events.first?.bodyText == "data: one\n\n")
        }
    }

    @Test func afterLastReset_ResetsTheConnection_AfterItsEvents_AndStall_SendsNothingMore() async throws {
        try await withChat { server in
            try await offThePool {
                let broken = try RawClient(port: server.port, timeout: 5)
                broken.send("GET /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Mock-Scenario: breaks\r\n\r\n")
                let (bytes, end) = broken.readToEnd()
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(text.contains("data: one\n\n") && text.contains("data: two\n\n"), "\(text)")
                #expect(!text.contains("0\r\n\r\n"), "no last chunk: the stream never ended well")
                #expect(end == .reset)
                let stalled = try RawClient(port: server.port, timeout: 5)
                stalled.send("GET /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Mock-Scenario: stalls\r\n\r\n")
                var received = ""
                while !received.contains("data: one\n\n"), let more = stalled.readSome() {
                    received += String(decoding: more, as: UTF8.self)
                }
                Thread.sleep(forTimeInterval: 0.3)
                #expect(stalled.isOpenAndSilent)
            }
        }
    }

    @Test func aPost_IsAnsweredByAStream_ThatEchoesItsBody() async throws {
        try await withChat { server in
            try await offThePool {
                let client = try RawClient(port: server.port, timeout: 5)
                let body = #"{"prompt": "why is the sky blue?"}"#
                client.send("POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
                let all = read(client, until: "0\r\n\r\n").map(\.bytes).joined()
                #expect(all.contains("data: you asked: why is the sky blue?\n\n") && all.contains("event: done\ndata: {}"), "\(all)")
            }
        }
    }

    @Test func lastEventID_ResumesAfterThatEvent_AndHEADGetsTheHeadAlone() async throws {
        try await withChat { server in
            try await offThePool {
                let client = try RawClient(port: server.port, timeout: 5)
                client.send("GET /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: 2\r\n\r\n")
                let all = read(client, until: "0\r\n\r\n").map(\.bytes).joined()
                #expect(!all.contains("data: one") && !all.contains("data: two") && all.contains("data: three"), "\(all)")
                let head = try RawClient(port: server.port, timeout: 5)
                head.send("HEAD /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let response = try head.readResponse()
                #expect(response.status == 200 && response.header("Content-Type")?.hasPrefix("text/event-stream") == true)
            }
        }
    }

    @Test func eventsFromAFixture_AndKeepOpen_LeaveTheStreamOpen() async throws {
        try await withChat { server in
            try await offThePool {
                let client = try RawClient(port: server.port, timeout: 1)
                client.send("GET /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Mock-Scenario: fromFile\r\n\r\n")
                let all = read(client, until: "data: from a file\n\n").map(\.bytes).joined()
                #expect(all.contains("id: f1\ndata: from a file\n\n"), "\(all)")
                #expect(client.isOpenAndSilent, "keepOpen: no end after the last event")
            }
        }
    }

    @Test func pushes_ReachTheOpenStreamsOfOneSession_OrAll_FromTheAdminAPIAndSwift() async throws {
        try await withChat { server in
            try await offThePool {
                func open(_ session: String) throws -> RawClient {
                    let client = try RawClient(port: server.port, timeout: 2)
                    client.send("GET /ticks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Mock-Scenario: fromFile\r\n"
                        + "X-Mock-Session: \(session)\r\n\r\n")
                    _ = read(client, until: "data: from a file\n\n")
                    return client
                }
                let alice = try open("alice"), bob = try open("bob")
                let admin = try RawClient(port: server.port, timeout: 2)
                let listed = try admin.get("/__mock/streams")
                let streams = try #require(try JSONSerialization.jsonObject(with: Data(listed.body)) as? [[String: Any]])
                #expect(Set(streams.compactMap { $0["session"] as? String }) == ["alice", "bob"], "\(listed.text)")
                let body = #"{"event": "note", "data": "for alice"}"#
                admin.send("POST /__mock/streams/ticks/send?session=alice HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
                let pushed = try admin.readResponse()
                #expect(pushed.status == 200 && pushed.text == #"{"sent":1}"#, "\(pushed.status) \(pushed.text)")
                #expect(read(alice, until: "data: for alice\n\n").map(\.bytes).joined().contains("event: note\ndata: for alice"))
                #expect(bob.isOpenAndSilent, "bob's session got nothing")
                #expect(server.send(eventData: "to all", to: "ticks") == 2)
                #expect(read(bob, until: "data: to all\n\n").map(\.bytes).joined().contains("data: to all"))
                let wrongMethod = try admin.get("/__mock/streams/ticks/send")
                #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "POST", "\(wrongMethod.text)")
                let nobody = #"{"data": "x"}"#
                admin.send("POST /__mock/streams/nope/send HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Length: \(nobody.utf8.count)\r\n\r\n" + nobody)
                #expect(try admin.readResponse().status == 404, "no endpoint nope")
            }
        }
    }
}
