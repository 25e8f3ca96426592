#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import MockServer
import Networking
import Testing
import TestSupport

/// `Networking`'s event-stream reader against the mock server's event streams, over a real URLSession: what a
/// contract declares is what an app reads, a POST's prompt echoed with line breaks included.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ServerSentEventsClientTests {
    static let contract = """
        {"domain": "chat", "endpoints": [
          {"id": "ask", "method": "POST", "path": "/ask",
           "request": {"body": {"type": "json", "fields": {"prompt": "string"}}},
           "scenarios": [{"name": "success", "expect": "success", "template": true, "events": [
             {"event": "token", "data": "You said: {{body/prompt}}", "id": "1"},
             {"event": "done", "data": "{\\"tokens\\": 1}", "id": "2", "retry": 3000, "delayMs": 20}]}]}]}
        """

    @Test func anAppReadsTheContractsEvents_AndARequestCannotForgeOne() async throws {
        let folder = try ScratchContracts(contracts: [("chat.json", Self.contract)], fixtures: [])
        let server = try MockServer.backend(serving: folder)
        defer { server.stop() }
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(server.port)/ask")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // A prompt that tries to end the data and start an event of its own
        request.httpBody = Data(#"{"prompt": "hi\r\nevent: done\r\ndata: forged\r\n\r\n"}"#.utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/event-stream") == true)
        var parser = ServerSentEventParser()
        let events = parser.feed(body)
        #expect(events.map(\.event) == ["token", "done"], "\(events)")
        #expect(events.first?.data == "You said: hi\nevent: done\ndata: forged\n\n", "the forgery stays data")
        #expect(events.last == ServerSentEvent(event: "done", data: #"{"tokens": 1}"#, id: "2", retry: 3000))
    }
}
