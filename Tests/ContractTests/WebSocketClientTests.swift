#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import MockServer
import Networking
import Testing
import TestSupport

/// `Networking`'s WebSocket wrapper against the mock server's WebSocket endpoints, over a real URLSession.
@Suite(.timeLimit(.minutes(2))) struct WebSocketClientTests {
    static let contract = """
        {"domain": "live", "endpoints": [
          {"id": "chat", "method": "GET", "path": "/chat", "websocket": true,
           "scenarios": [{"name": "success", "expect": "success", "onConnect": [{"json": {"type": "welcome"}}],
             "replies": [{"when": {"json": {"/type": "ping"}}, "send": [{"json": {"type": "pong"}}]}],
             "close": {"code": 4000, "afterMessages": 2}, "echo": true}]}]}
        """

    @Test func url_OfAnEnvironment_IsItsWebSocketURL_WithTheSession() {
        #expect(WebSocketConnection.url(path: "/chat", in: .local(port: 8080), session: "ui 1")?.absoluteString
            == "ws://127.0.0.1:8080/chat?session=ui%201")
        let prefixed = ServerEnvironment(name: "live", baseURL: URL(string: "https://api.example.com/v2/")!)
        #expect(WebSocketConnection.url(path: "live/chat", in: prefixed)?.absoluteString == "wss://api.example.com/v2/live/chat")
        #expect(WebSocketConnection.url(path: "/x", in: ServerEnvironment(name: "f", baseURL: URL(fileURLWithPath: "/tmp"))) == nil)
    }

    /// On Apple platforms this runs end to end. On Linux, URLSessionWebSocketTask needs a libcurl with WebSocket
    /// support, which Debian's lacks: the first receive throws `unsupportedURL`, recorded as a known issue.
    @Test func anAppTalksToTheContractsSocket_UntilTheScriptCloses() async throws {
        let folder = try ScratchContracts(contracts: [("live.json", Self.contract)], fixtures: [])
        let server = try MockServer.backend(serving: folder)
        defer { server.stop() }
        let url = try #require(WebSocketConnection.url(path: "/chat", in: .local(port: Int(server.port)), session: "app-1"))
        let socket = WebSocketConnection(url: url)
        do {
            #expect(try await socket.receive() == .text(#"{"type":"welcome"}"#))
        } catch let error as URLError where error.code == .unsupportedURL {
            #if os(Linux)
            withKnownIssue("this Linux's libcurl has no WebSocket support") { throw error }
            return
            #else
            throw error
            #endif
        }
        try await socket.send(.text(#"{"type": "ping"}"#))
        #expect(try await socket.receive() == .text(#"{"type":"pong"}"#))
        try await socket.send(.text("echo me"))
        var rest: [WebSocketConnection.Message] = []
        for try await message in socket.messages { rest.append(message) }
        #expect(rest == [.text("echo me")])
        #expect(socket.closeCode == 4000)
        #expect(server.journal.entries().contains { $0.session == "app-1" && $0.message?.direction == .received })
    }
}
