/// The server's side of the WebSocket opening handshake (RFC 6455 §4.2): whether a request asks for a WebSocket
/// it can accept, and the 101 response that accepts it.
package enum WebSocketHandshake {
    /// The GUID the accept value is made with (§1.3).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: base64 of the SHA-1 of the key and the GUID.
    package static func accept(key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + guid).utf8)))
    }

    /// Why a request cannot be upgraded, with the status to answer (400, or 426 for a version this server does
    /// not speak, with `Sec-WebSocket-Version: 13` among `headers`, §4.4).
    package struct Refusal: Error, Equatable {
        package let status: HTTPStatus
        package let reason: String
        package let headers: [(name: String, value: String)]

        package static func == (lhs: Refusal, rhs: Refusal) -> Bool {
            lhs.status == rhs.status && lhs.reason == rhs.reason && lhs.headers.elementsEqual(rhs.headers, by: ==)
        }
    }

    /// Whether `request` is a WebSocket opening handshake this server accepts (§4.2.1).
    private static func isUpgrade(_ request: HTTPRequest) -> Bool {
        tokens(request, "Upgrade").contains { $0.lowercased() == "websocket" }
    }

    /// The 101 response's fields that accept `request`, choosing the first of its subprotocols that `protocols`
    /// lists (none when it offers none of them, and the client decides whether to go on); or why it cannot be
    /// accepted.
    package static func accept(_ request: HTTPRequest, protocols: [String]) -> Result<[(name: String, value: String)], Refusal> {
        guard request.method == .get else {
            return .failure(Refusal(status: .badRequest, reason: "a WebSocket opens with GET, not \(request.method)", headers: []))
        }
        guard request.version == .http11 else {
            return .failure(Refusal(status: .badRequest, reason: "a WebSocket opens over HTTP/1.1", headers: []))
        }
        guard isUpgrade(request), tokens(request, "Connection").contains(where: { $0.lowercased() == "upgrade" }) else {
            return .failure(Refusal(status: HTTPStatus(426), reason: "this endpoint is a WebSocket: send Upgrade: websocket "
                + "and Connection: Upgrade", headers: [("Upgrade", "websocket"), ("Connection", "Upgrade")]))
        }
        guard values(request, "Sec-WebSocket-Version") == ["13"] else {
            return .failure(Refusal(status: HTTPStatus(426), reason: "Sec-WebSocket-Version must be 13",
                                    headers: [("Sec-WebSocket-Version", "13")]))
        }
        let keys = values(request, "Sec-WebSocket-Key")
        guard keys.count == 1, Base64.decode(keys[0])?.count == 16 else {
            return .failure(Refusal(status: .badRequest, reason: "Sec-WebSocket-Key must be 16 bytes in base64", headers: []))
        }
        var fields = [(name: "Upgrade", value: "websocket"), (name: "Sec-WebSocket-Accept", value: accept(key: keys[0]))]
        if let chosen = tokens(request, "Sec-WebSocket-Protocol").first(where: protocols.contains) {
            fields.append(("Sec-WebSocket-Protocol", chosen))
        }
        return .success(fields)
    }

    /// The values of every `name` field, trimmed.
    private static func values(_ request: HTTPRequest, _ name: String) -> [String] {
        request.headers.filter { HTTPHeaders.equal($0.name, name) }.map { trimmed(Substring($0.value)) }
    }

    /// The comma-separated tokens of every `name` field, in order.
    private static func tokens(_ request: HTTPRequest, _ name: String) -> [String] {
        values(request, name).flatMap { $0.split(separator: ",").map(trimmed) }.filter { !$0.isEmpty }
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
