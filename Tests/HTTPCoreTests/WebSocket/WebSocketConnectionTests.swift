import HTTPCore
import TestSupport
import Testing

/// A WebSocket over a real socket, with the core alone: the upgrade, echo, ping, the close handshake both ways,
/// a violation's close code, idleness and a slow reader's limit.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct WebSocketConnectionTests {
    /// Upgrades every request and echoes each message; remembers how each socket ended.
    private final class EchoResponder: HTTPResponder, WebSocketHandler {
        let endings = Locked<[WebSocketChannel.Ending]>([])
        let idleTimeout: UInt64
        init(idleTimeout: UInt64 = 300_000_000_000) { self.idleTimeout = idleTimeout }

        func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply {
            switch WebSocketHandshake.accept(request, protocols: ["echo"]) {
            case .success(let fields):
                let channel = WebSocketChannel(handler: self, maxMessageBytes: 1000, idleTimeout: idleTimeout)
                return Reply(.upgrade(HTTPResponse(status: HTTPStatus(101), headers: fields), channel))
            case .failure(let refusal):
                return .respond(HTTPResponse(status: refusal.status, headers: refusal.headers, body: Array(refusal.reason.utf8)))
            }
        }
        func reject(_ status: HTTPStatus, reason: String) -> Reply { .respond(HTTPResponse(status: status)) }
        func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {}

        func opened(_ channel: WebSocketChannel) { channel.send(.text("hello")) }
        func received(_ message: WebSocketMessage, on channel: WebSocketChannel) {
            if message == .text("bye") { return channel.close(code: 4000, reason: "asked to") }
            channel.send(message)
        }
        func closed(_ channel: WebSocketChannel, ending: WebSocketChannel.Ending) {
            endings.withValue { $0.append(ending) }
        }
    }

    private func server(_ responder: EchoResponder) throws -> HTTPServer {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1, io: nil), responder: responder)
        try server.start()
        return server
    }

    @Test func upgrade_WithTheRFCsKey_AnswersItsAcceptValue_ThenEchoes() throws {
        let responder = EchoResponder()
        let server = try server(responder)
        defer { server.stop() }
        // The first text frame rides with the handshake, as a client may send it.
        let client = try WebSocketTestClient(port: server.port, headers: [("Sec-WebSocket-Protocol", "chat, echo")])
        #expect(client.handshake.statusLine == "HTTP/1.1 101 Switching Protocols")
        #expect(client.handshake.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(client.handshake.header("Sec-WebSocket-Protocol") == "echo")
        #expect(client.handshake.header("Connection") == "Upgrade")
        #expect(client.handshake.header("Content-Length") == nil)
        #expect(client.readText() == "hello")
        client.send(text: "héllo")
        #expect(client.readText() == "héllo")
        // Fragmented and masked, with a ping between the fragments.
        client.sendFrame(opcode: 2, [1, 2], fin: false)
        client.sendFrame(opcode: 9, Array("p".utf8))
        client.sendFrame(opcode: 0, [3])
        let pong = client.readFrame()
        #expect(pong?.opcode == 10)
        #expect(pong?.text == "p")
        #expect(pong?.masked == false)
        let binary = client.readFrame()
        #expect(binary?.opcode == 2)
        #expect(binary?.payload == [1, 2, 3])
        // The client closes: the server answers with its code and closes the connection.
        client.sendClose(code: 1000, reason: "done")
        let close = client.readFrame()
        #expect(close?.opcode == 8)
        #expect(close?.closeCode == 1000)
        #expect(client.readsToClose())
        try pollUntil { responder.endings.withValue { $0 } == [.closedByClient(code: 1000, reason: "done")] }
    }

    @Test func aServerClose_SendsItsCodeAndReason_ThenCloses() throws {
        let responder = EchoResponder()
        let server = try server(responder)
        defer { server.stop() }
        let client = try WebSocketTestClient(port: server.port)
        #expect(client.readText() == "hello")
        client.send(text: "bye")
        let close = client.readFrame()
        #expect(close?.closeCode == 4000)
        #expect(String(decoding: close?.payload.dropFirst(2) ?? [], as: UTF8.self) == "asked to")
        #expect(client.readsToClose())
        #expect(responder.endings.withValue { $0 } == [.closedByServer(code: 4000, reason: "asked to")])
    }

    @Test(arguments: [
        (WebSocketTestClient.frame(opcode: 1, Array("hi".utf8), masked: false), UInt16(1002)),
        (WebSocketTestClient.frame(opcode: 1, [0xFF, 0xFE]), UInt16(1007)),
        (WebSocketTestClient.frame(opcode: 2, [UInt8](repeating: 0, count: 1001)), UInt16(1009)),
    ])
    func aViolation_ClosesWithItsCode(bytes: [UInt8], code: UInt16) throws {
        let responder = EchoResponder()
        let server = try server(responder)
        defer { server.stop() }
        let client = try WebSocketTestClient(port: server.port)
        #expect(client.readText() == "hello")
        client.raw.send(bytes)
        let close = client.readFrame()
        #expect(close?.opcode == 8)
        #expect(close?.closeCode == code)
        #expect(client.readsToClose())
        try pollUntil {
            if case .violation(code, _)? = responder.endings.withValue({ $0.first }) { return true }
            return false
        }
    }

    /// A client that sends without pause and never reads: its echoes pile up until it is dropped, and meanwhile the
    /// loop it shares keeps answering others.
    @Test func aClientThatSendsButNeverReads_IsDropped_AndOthersAreServed() throws {
        let responder = EchoResponder()
        let server = try server(responder)
        defer { server.stop() }
        let flooder = try RawClient(port: server.port, timeout: 10, receiveBuffer: 4096)
        flooder.send("GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(WebSocketTestClient.exampleKey)\r\nSec-WebSocket-Version: 13\r\n\r\n")
        _ = try flooder.readResponse()
        let frame = WebSocketTestClient.frame(opcode: 2, [UInt8](repeating: 7, count: 900))
        let other = try WebSocketTestClient(port: server.port)
        #expect(other.readText() == "hello")
        // 20 MB of messages whose echoes nobody reads (the send gives up once the server closes).
        for round in 0..<2_000 {
            flooder.send(Array(repeating: frame, count: 11).flatMap { $0 })
            if round % 200 == 0 {
                other.send(text: "still here \(round)")
                #expect(other.readText() == "still here \(round)")
            }
            if case .lost? = responder.endings.withValue({ $0.first }) { break }
        }
        try pollUntil(seconds: 20) { responder.endings.withValue { $0.contains(.lost) } }
    }

    @Test func anIdleSocket_IsClosedWith1001() throws {
        let responder = EchoResponder(idleTimeout: 300_000_000)
        let server = try server(responder)
        defer { server.stop() }
        let client = try WebSocketTestClient(port: server.port)
        #expect(client.readText() == "hello")
        let close = client.readFrame()
        #expect(close?.closeCode == 1001)
        #expect(client.readsToClose())
    }

    @Test func aClientThatLeaves_WithoutAClose_IsLost() throws {
        let responder = EchoResponder()
        let server = try server(responder)
        defer { server.stop() }
        do {
            let client = try WebSocketTestClient(port: server.port)
            #expect(client.readText() == "hello")
        }
        try pollUntil { responder.endings.withValue { $0 } == [.lost] }
    }

    @Test func aRequestThatIsNotAnUpgrade_IsRefused_AndTheConnectionStaysHTTP() throws {
        let server = try server(EchoResponder())
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 426)
        #expect(response.header("Upgrade") == "websocket")
    }

    @Test func stoppingTheServer_ClosesOpenSocketsWith1001() throws {
        let responder = EchoResponder()
        let server = try server(responder)
        let client = try WebSocketTestClient(port: server.port)
        #expect(client.readText() == "hello")
        server.stop()
        let close = client.readFrame()
        #expect(close?.closeCode == 1001)
    }
}
