@testable import HTTPCore
import Testing

@Suite struct WebSocketHandshakeTests {
    private func request(_ fields: [(String, String)], method: HTTPRequest.Method = .get, version: HTTPVersion = .http11)
        -> HTTPRequest
    {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.append(name: name, value: value) }
        return HTTPRequest(method: method, target: "/chat", version: version, headers: headers)
    }

    private let valid = [("Host", "x"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
                         ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13")]

    /// RFC 6455 §1.3's example.
    @Test func accept_OfTheRFCsExampleKey_IsTheRFCsValue() {
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func accept_OfAValidRequest_ChoosesTheClientsFirstListedProtocol() throws {
        let fields = try WebSocketHandshake.accept(request(valid + [("Sec-WebSocket-Protocol", "v1.chat, v2.chat")]),
                                                   protocols: ["v2.chat", "v1.chat"]).get()
        #expect(fields.map(\.name) == ["Upgrade", "Sec-WebSocket-Accept", "Sec-WebSocket-Protocol"])
        #expect(fields[1].value == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(fields[2].value == "v1.chat")
        // None offered that the contract lists: no protocol field, and the client decides.
        let none = try WebSocketHandshake.accept(request(valid + [("Sec-WebSocket-Protocol", "mqtt")]), protocols: ["v1.chat"]).get()
        #expect(none.count == 2)
    }

    @Test func accept_OfBrokenHandshakes_SaysWhatIsWrong() {
        func refusal(_ fields: [(String, String)], method: HTTPRequest.Method = .get, version: HTTPVersion = .http11)
            -> WebSocketHandshake.Refusal?
        {
            if case .failure(let refusal) = WebSocketHandshake.accept(request(fields, method: method, version: version), protocols: []) {
                return refusal
            }
            return nil
        }
        #expect(refusal(valid, method: .post)?.status.code == 400)
        #expect(refusal(valid, version: .http10)?.status.code == 400)
        #expect(refusal(valid.filter { $0.0 != "Upgrade" })?.status.code == 426)
        #expect(refusal(valid.filter { $0.0 != "Connection" })?.status.code == 426)
        let version = refusal(valid.filter { $0.0 != "Sec-WebSocket-Version" } + [("Sec-WebSocket-Version", "8")])
        #expect(version?.status.code == 426)
        #expect(version?.headers.first?.value == "13")
        #expect(refusal(valid.filter { $0.0 != "Sec-WebSocket-Key" })?.status.code == 400)
        // Base64, but of 15 bytes.
        #expect(refusal(valid.filter { $0.0 != "Sec-WebSocket-Key" } + [("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25j")])?.status.code == 400)
        #expect(refusal(valid + [("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")])?.reason.contains("16 bytes") == true)
    }
}
