import ContractModel
import HTTPCore

/// A WebSocket scenario as the server plays it, prepared once at load: its messages encoded as the socket sends
/// them, and its replies' tests compiled (request matching's ``MatcherTest``s, applied to a message instead of a
/// request).
final class WebSocketPlay: Sendable {
    /// A message to send, after `delayMs`.
    struct Outgoing: Sendable {
        let message: WebSocketMessage
        let delayMs: Int
    }

    /// What a client's message must be for a reply: its whole text, or values at JSON pointers in it.
    enum Test: Sendable {
        case text(MatcherTest)
        case json([(pointer: String, test: MatcherTest)])
    }

    struct Reply: Sendable {
        /// `nil`: any message.
        let test: Test?
        let send: [Outgoing]
    }

    let onConnect: [Outgoing]
    let replies: [Reply]
    let echo: Bool
    let close: WebSocketScript.Close?
    /// The `Sec-WebSocket-Protocol` values the endpoint agrees to.
    let subprotocols: [String]
    /// The mock's own fields (endpoint and scenario) that the 101 response carries.
    let naming: [(name: String, value: String)]

    init(_ script: WebSocketScript, subprotocols: [String], naming: [(name: String, value: String)]) {
        onConnect = script.onConnect.map(Self.outgoing)
        replies = script.replies.map { reply in
            let test: Test? = switch reply.when {
            case .text(let matcher)?: .text(MatcherTest(matcher))
            case .json(let tests)?: .json(tests.map { ($0.pointer, MatcherTest($0.matcher)) })
            case nil: nil
            }
            return Reply(test: test, send: reply.send.map(Self.outgoing))
        }
        echo = script.echo
        close = script.close
        self.subprotocols = subprotocols
        self.naming = naming
    }

    /// What to send for the client's `message`: the first reply whose test holds, else the message itself when the
    /// script echoes; `nil` when nothing answers it.
    func answer(to message: WebSocketMessage) -> [Outgoing]? {
        var document: JSONValue??
        for reply in replies {
            guard let test = reply.test else { return reply.send }
            switch (test, message) {
            case (.text(let matcher), .text(let text)):
                if matcher.holds(.text(text)) { return reply.send }
            case (.text(let matcher), .binary):
                if matcher.holds(nil) { return reply.send }
            case (.json(let tests), _):
                // Parsed once, for the first reply that reads it; a message that is not JSON has no values.
                if document == nil {
                    if case .text(let text) = message { document = .some(try? JSONValue.parse(text.utf8)) } else { document = .some(nil) }
                }
                let parsed = document ?? nil
                if tests.allSatisfy({ $0.test.holds(parsed?.value(at: $0.pointer).map(RequestFacts.Value.json)) }) {
                    return reply.send
                }
            }
        }
        return echo ? [Outgoing(message: message, delayMs: 0)] : nil
    }

    static func outgoing(_ message: WebSocketScript.Message) -> Outgoing {
        let sent: WebSocketMessage = switch message.content {
        case .text(let text): .text(text)
        case .json(let value): .text(String(decoding: value.serialized, as: UTF8.self))
        case .binary(let bytes): .binary(bytes)
        }
        return Outgoing(message: sent, delayMs: message.delayMs)
    }
}
