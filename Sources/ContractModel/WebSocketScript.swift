#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a scenario of a WebSocket endpoint (`"websocket": true`) does once the upgrade is done: the messages it sends
/// on connecting, how it answers the client's messages, and when it closes.
///
/// ```json
/// { "name": "chat", "expect": "success",
///   "onConnect": [ { "json": { "type": "welcome" } } ],
///   "replies": [ { "when": { "json": { "/type": "ping" } }, "send": [ { "json": { "type": "pong" }, "delayMs": 50 } ] } ],
///   "echo": true,
///   "close": { "code": 1000, "reason": "bye", "afterMessages": 10 } }
/// ```
package struct WebSocketScript: Sendable, Equatable {
    /// One message the server sends.
    package struct Message: Sendable, Equatable {
        package enum Content: Sendable, Equatable {
            case text(String)
            /// Sent as text, written compactly.
            case json(JSONValue)
            case binary([UInt8])
        }

        package var content: Content
        /// Milliseconds after the message before it (or after the upgrade, or the message it answers).
        package var delayMs = 0

        package init(_ content: Content, delayMs: Int = 0) {
            self.content = content
            self.delayMs = delayMs
        }
    }

    /// What a client's message must be for a reply to answer it.
    package enum MessageTest: Sendable, Equatable {
        /// The whole text (a binary message never holds).
        case text(Matcher)
        /// Values in the message parsed as JSON, by RFC 6901 pointer: all must hold.
        case json([PointerTest])
    }

    package struct PointerTest: Sendable, Equatable {
        package let pointer: String
        package let matcher: Matcher

        package init(pointer: String, matcher: Matcher) {
            self.pointer = pointer
            self.matcher = matcher
        }
    }

    /// The messages sent when a client's message passes `when` (any message when `nil`).
    package struct Reply: Sendable, Equatable {
        package var when: MessageTest?
        package var send: [Message]

        package init(when: MessageTest?, send: [Message]) {
            self.when = when
            self.send = send
        }
    }

    /// When and how the server ends the socket: after it has answered `afterMessages` client messages, or
    /// `afterMs` after the upgrade, whichever comes first; with neither, once `onConnect` is sent.
    package struct Close: Sendable, Equatable {
        package var code = 1000
        package var reason = ""
        package var afterMessages: Int?
        package var afterMs: Int?

        /// The codes a server may send (RFC 6455 §7.4): the defined ones not reserved for reports, and the ranges for
        /// registered and private use. (The HTTP core, which cannot see this model, checks what clients send by the
        /// same rule, as `WebSocketCloseCode.isSendable`.)
        package static func isSendable(_ code: Int) -> Bool {
            (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
        }

        package init(code: Int = 1000, reason: String = "", afterMessages: Int? = nil, afterMs: Int? = nil) {
            self.code = code
            self.reason = reason
            self.afterMessages = afterMessages
            self.afterMs = afterMs
        }
    }

    package var onConnect: [Message] = []
    /// Tried in order; the first whose `when` holds answers.
    package var replies: [Reply] = []
    /// A message no reply took is sent back as it came.
    package var echo = false
    package var close: Close?

    package init(onConnect: [Message] = [], replies: [Reply] = [], echo: Bool = false, close: Close? = nil) {
        self.onConnect = onConnect
        self.replies = replies
        self.echo = echo
        self.close = close
    }

    /// The scenario keys that make a scenario a WebSocket script.
    package static let keys = ["onConnect", "replies", "echo", "close"]
}

extension WebSocketScript {
    /// The script's keys as a scenario writes them, defaults left out.
    package var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        if !onConnect.isEmpty { fields["onConnect"] = .array(onConnect.map(\.json)) }
        if !replies.isEmpty {
            fields["replies"] = .array(replies.map { reply in
                var members: [String: JSONValue] = ["send": .array(reply.send.map(\.json))]
                if let test = reply.when { members["when"] = test.json }
                return .object(members)
            })
        }
        if echo { fields["echo"] = .bool(true) }
        if let close {
            var members: [String: JSONValue] = [:]
            if close.code != 1000 { members["code"] = .integer(close.code) }
            if !close.reason.isEmpty { members["reason"] = .string(close.reason) }
            if let after = close.afterMessages { members["afterMessages"] = .integer(after) }
            if let after = close.afterMs { members["afterMs"] = .integer(after) }
            fields["close"] = .object(members)
        }
        // An empty script is still one: it accepts the upgrade and waits.
        if fields.isEmpty { fields["onConnect"] = .array([]) }
        return fields
    }
}

extension WebSocketScript.Message {
    /// `{"text": "…"}`, `{"json": …}` or `{"binary": "<base64>"}`, with `delayMs` when it has one.
    package var json: JSONValue {
        var fields: [String: JSONValue]
        switch content {
        case .text(let text): fields = ["text": .string(text)]
        case .json(let value): fields = ["json": value]
        case .binary(let bytes): fields = ["binary": .string(Data(bytes).base64EncodedString())]
        }
        if delayMs != 0 { fields["delayMs"] = .integer(delayMs) }
        return .object(fields)
    }
}

extension WebSocketScript.MessageTest {
    package var json: JSONValue {
        switch self {
        case .text(let matcher): .object(["text": matcher.json])
        case .json(let tests): .object(["json": .object(Dictionary(tests.map { ($0.pointer, $0.matcher.json) }) { first, _ in first })])
        }
    }
}
