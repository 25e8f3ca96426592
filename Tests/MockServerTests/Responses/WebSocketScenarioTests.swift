import Foundation
import HTTPCore
import MockServer
import Testing
import TestSupport

/// Endpoints with `"websocket": true` over real sockets: the upgrade, a script's greeting, replies by JSON pointer and
/// by text, echo, the close, pushes to one session only, the journal's entries, and many sockets at once.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct WebSocketScenarioTests {
    static let contract = """
        {"domain": "live", "endpoints": [
          {"id": "chat", "method": "GET", "path": "/chat", "websocket": true, "subprotocols": ["chat.v1"],
           "scenarios": [
             {"name": "success", "expect": "success",
              "onConnect": [{"json": {"type": "welcome"}}],
              "replies": [
                {"when": {"json": {"/type": "ping"}}, "send": [{"json": {"type": "pong"}}]},
                {"when": {"json": {"/type": "slow"}}, "send": [{"text": "first", "delayMs": 150}, {"text": "second", "delayMs": 100}]},
                {"when": {"text": {"prefix": "bye"}}, "send": [{"text": "see you"}]}],
              "echo": true,
              "close": {"code": 4000, "reason": "enough", "afterMessages": 5}},
             {"name": "quiet", "expect": "success", "replies": [{"send": [{"binary": "AAEC"}]}]},
             {"name": "refused", "status": 401, "expect": "requestErr"}]},
          {"id": "products", "method": "GET", "path": "/products",
           "scenarios": [{"name": "success", "status": 200, "expect": "success"}]}
        ]}
        """

    private func withLive(_ body: (MockServer) async throws -> Void) async throws {
        let folder = try ScratchContracts(contracts: [("live.json", Self.contract)], fixtures: [])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures, body)
    }

    @Test func theScript_Greets_RepliesByJSONPointerAndText_Echoes_AndClosesAfterItsMessages() async throws {
        try await withLive { server in
            try await offThePool {
                let client = try WebSocketTestClient(port: server.port, target: "/chat",
                                                     headers: [("Sec-WebSocket-Protocol", "chat.v2, chat.v1")])
                #expect(client.handshake.status == 101)
                #expect(client.handshake.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
                #expect(client.handshake.header("Sec-WebSocket-Protocol") == "chat.v1")
                #expect(client.handshake.header("X-Mock-Scenario") == "success")
                #expect(client.readText() == #"{"type":"welcome"}"#)
                client.send(text: #"{"type": "ping", "n": 1}"#)
                #expect(client.readText() == #"{"type":"pong"}"#)
                client.send(text: "bye now")
                #expect(client.readText() == "see you")
                client.send(text: "nobody answers this")
                #expect(client.readText() == "nobody answers this")
                // Delayed replies keep their order and their times.
                let started = Date()
                client.send(text: #"{"type": "slow"}"#)
                #expect(client.readText() == "first")
                let first = Date().timeIntervalSince(started)
                #expect(client.readText() == "second")
                let second = Date().timeIntervalSince(started)
                #expect(abs(first - 0.15) < 0.05, "\(first)")
                #expect(abs(second - 0.25) < 0.05, "\(second)")
                // The fifth message: its answer, then the script's close.
                client.send(text: "last")
                #expect(client.readText() == "last")
                let close = client.readFrame()
                #expect(close?.opcode == 8)
                #expect(close?.closeCode == 4000)
                #expect(String(decoding: close?.payload.dropFirst(2) ?? [], as: UTF8.self) == "enough")
            }
            // The journal has the upgrade and every message, in order, with its direction.
            try await waitUntil { server.journal.entries().last?.message?.kind == .close }
            let entries = server.journal.entries()
            #expect(entries.first?.status == 101)
            let messages = entries.compactMap { entry in entry.message.map { ($0.direction.rawValue, entry.bodyText ?? "") } }
            #expect(messages.map(\.0) == ["sent", "received", "sent", "received", "sent", "received", "sent",
                                          "received", "sent", "sent", "received", "sent", "sent"])
            #expect(messages[1].1 == #"{"type": "ping", "n": 1}"#)
            #expect(entries.last?.reason == #"closed by the server with 4000 "enough""#)
            #expect(entries.allSatisfy { $0.endpoint == "chat" })
        }
    }

    @Test func pushes_ReachOnlyTheSessionNamed_AndAreJournaled() async throws {
        try await withLive { server in
            try await offThePool {
                let first = try WebSocketTestClient(port: server.port, target: "/chat?session=a")
                let second = try WebSocketTestClient(port: server.port, target: "/chat", headers: [("X-Mock-Session", "b")])
                #expect(first.readText() == #"{"type":"welcome"}"#)
                #expect(second.readText() == #"{"type":"welcome"}"#)
                // Through the admin API, as a test in another process would.
                let admin = try RawClient(port: server.port)
                let body = #"{"json": {"type": "news", "id": 7}}"#
                admin.send("POST /__mock/streams/chat/send?session=b HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
                let answer = try admin.readResponse()
                #expect(answer.status == 200)
                #expect(answer.text == #"{"sent":1}"#)
                #expect(second.readText() == #"{"id":7,"type":"news"}"#)
                // And from Swift, to every session.
                #expect(server.send(.text("to all"), to: "chat") == 2)
                #expect(first.readText() == "to all")
                #expect(second.readText() == "to all")
                // A listing of what is open.
                admin.send("GET /__mock/streams HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let listing = try admin.readResponse().text
                #expect(listing.contains(#""kind":"websocket""#) && listing.contains(#""session":"a""#), "\(listing)")
                // A message that is not one.
                let bad = #"{"text": "a", "json": 1}"#
                admin.send("POST /__mock/streams/chat/send HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(bad.utf8.count)\r\n\r\n" + bad)
                let refused = try admin.readResponse()
                #expect(refused.status == 400)
                #expect(refused.text.contains("exactly one of text, json, binary"), "\(refused.text)")
            }
            let pushed = server.journal.entries().filter { $0.message?.direction == .sent && $0.bodyText == "to all" }
            #expect(Set(pushed.compactMap(\.session)) == ["a", "b"])
        }
    }

    @Test func aScenarioThatRefuses_AnswersItsStatus_AndAPlainGET_Gets426() async throws {
        try await withLive { server in
            try await offThePool {
                let refused = try WebSocketTestClient(port: server.port, target: "/chat",
                                                      headers: [("X-Mock-Scenario", "refused")])
                #expect(refused.handshake.status == 401)
                let plain = try RawClient(port: server.port)
                let response = try plain.get("/chat")
                #expect(response.status == 426)
                #expect(response.text.contains("Upgrade: websocket"), "\(response.text)")
                let quiet = try WebSocketTestClient(port: server.port, target: "/chat", headers: [("X-Mock-Scenario", "quiet")])
                quiet.send(binary: [9])
                let frame = quiet.readFrame()
                #expect(frame?.opcode == 2)
                #expect(frame?.payload == [0, 1, 2])
            }
        }
    }

    @Test func twoHundredOpenSockets_LeaveTheOtherEndpointsAnswering() async throws {
        try await withLive { server in
            try await offThePool {
                var sockets: [WebSocketTestClient] = []
                for _ in 0..<200 {
                    let socket = try WebSocketTestClient(port: server.port, target: "/chat")
                    #expect(socket.readText() == #"{"type":"welcome"}"#)
                    sockets.append(socket)
                }
                let client = try RawClient(port: server.port)
                for _ in 0..<20 { #expect(try client.get("/products").status == 200) }
                // Every socket still answers.
                for (index, socket) in sockets.enumerated() where index % 20 == 0 {
                    socket.send(text: "still there \(index)")
                    #expect(socket.readText() == "still there \(index)")
                }
            }
        }
    }
}
