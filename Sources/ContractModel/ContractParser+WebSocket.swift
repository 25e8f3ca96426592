#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ContractParser {
    // MARK: - WebSocket endpoints and scenarios

    /// An endpoint's `"subprotocols"`: the `Sec-WebSocket-Protocol` values it may agree to, each a token.
    mutating func parseSubprotocols(_ value: JSONValue?, at path: String) -> [String] {
        guard let list = array(value, at: path, required: false) else { return [] }
        var names: [String] = []
        for (index, item) in list.enumerated() {
            guard let name = requiredString(item, at: path + "[\(index)]") else { continue }
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                report(path + "[\(index)]", "\"\(name)\" is not a token (letters, digits and !#$%&'*+-.^_`|~)")
                continue
            }
            names.append(name)
        }
        checkUnique(names, at: path, what: "subprotocol")
        return names
    }

    /// A scenario's `onConnect`, `replies`, `echo` and `close` (``WebSocketScript``), or `nil` when it has none of them.
    mutating func parseWebSocket(_ fields: [String: JSONValue], at path: String) -> WebSocketScript? {
        guard WebSocketScript.keys.contains(where: { fields[$0] != nil }) else { return nil }
        var script = WebSocketScript()
        script.onConnect = parseMessages(fields["onConnect"], at: path + ".onConnect")
        if let list = array(fields["replies"], at: path + ".replies", required: false) {
            for (index, item) in list.enumerated() {
                if let reply = parseReply(item, at: path + ".replies[\(index)]") { script.replies.append(reply) }
            }
        }
        script.echo = optionalBool(fields["echo"], at: path + ".echo") ?? false
        if let value = fields["close"] { script.close = parseClose(value, at: path + ".close") }
        return script
    }

    /// A list of messages, each `{"text"}`, `{"json"}` or `{"binary"}` with an optional `delayMs`.
    private mutating func parseMessages(_ value: JSONValue?, at path: String) -> [WebSocketScript.Message] {
        guard let list = array(value, at: path, required: false) else { return [] }
        return list.enumerated().compactMap { index, item in parseMessage(item, at: path + "[\(index)]") }
    }

    mutating func parseMessage(_ value: JSONValue, at path: String) -> WebSocketScript.Message? {
        guard let fields = object(value, at: path, keys: ContractSchema.keys(of: .message)) else { return nil }
        let delayMs = integer(fields["delayMs"], at: path + ".delayMs", in: 0...60_000) ?? 0
        let kinds = ["text", "json", "binary"].filter { fields[$0] != nil }
        guard kinds.count == 1 else {
            report(path, "a message has exactly one of text, json, binary" + (kinds.isEmpty ? "" : "; found " + kinds.joined(separator: ", ")))
            return nil
        }
        switch kinds[0] {
        case "text":
            return requiredString(fields["text"], at: path + ".text").map { .init(.text($0), delayMs: delayMs) }
        case "json":
            return fields["json"].map { .init(.json($0), delayMs: delayMs) }
        default:
            guard let text = requiredString(fields["binary"], at: path + ".binary") else { return nil }
            guard let bytes = Data(base64Encoded: text) else {
                report(path + ".binary", "is not base64")
                return nil
            }
            return .init(.binary(Array(bytes)), delayMs: delayMs)
        }
    }

    /// `{"when": {"text": <matcher>} | {"json": {"/pointer": <matcher>}}, "send": [messages]}`.
    private mutating func parseReply(_ value: JSONValue, at path: String) -> WebSocketScript.Reply? {
        guard let fields = object(value, at: path, keys: ContractSchema.keys(of: .reply)) else { return nil }
        if fields["send"] == nil { report(path + ".send", "is required: the messages to send (an empty list sends none)") }
        let send = parseMessages(fields["send"], at: path + ".send")
        var test: WebSocketScript.MessageTest?
        if let when = fields["when"] {
            guard let parsed = parseMessageTest(when, at: path + ".when") else { return nil }
            test = parsed
        }
        guard fields["send"] != nil else { return nil }
        return WebSocketScript.Reply(when: test, send: send)
    }

    private mutating func parseMessageTest(_ value: JSONValue, at path: String) -> WebSocketScript.MessageTest? {
        guard let fields = object(value, at: path, keys: ContractSchema.keys(of: .messageTest)) else { return nil }
        guard fields.count == 1, let (key, argument) = fields.first else {
            report(path, "a reply's when has exactly one of text, json")
            return nil
        }
        if key == "text" { return parseMatcher(argument, at: path + ".text").map { .text($0) } }
        // Any other key is reported as unknown already.
        guard key == "json" else { return nil }
        guard case .object(let pointers) = argument, !pointers.isEmpty else {
            report(path + ".json", "expected an object of JSON pointers to matchers: {\"/type\": \"ping\"}")
            return nil
        }
        var tests: [WebSocketScript.PointerTest] = []
        for (pointer, matcher) in pointers.sorted(by: { $0.key < $1.key }) {
            guard JSONValue.isValidPointer(pointer) else {
                report(path + ".json." + pointer, "\"\(pointer)\" is not a JSON pointer (RFC 6901): use \"\" or /name/0")
                continue
            }
            if let matcher = parseMatcher(matcher, at: path + ".json." + pointer) {
                tests.append(.init(pointer: pointer, matcher: matcher))
            }
        }
        return tests.count == pointers.count ? .json(tests) : nil
    }

    /// `{"code": 1000, "reason": "bye", "afterMessages": 3, "afterMs": 5000}`, every key optional.
    private mutating func parseClose(_ value: JSONValue, at path: String) -> WebSocketScript.Close? {
        guard let fields = object(value, at: path, keys: ContractSchema.keys(of: .close)) else { return nil }
        var close = WebSocketScript.Close()
        if let code = integer(fields["code"], at: path + ".code", in: 1000...4999) {
            if WebSocketScript.Close.isSendable(code) {
                close.code = code
            } else {
                report(path + ".code", "\(code) may not be sent (RFC 6455 §7.4): use 1000–1003, 1007–1014 or 3000–4999")
            }
        }
        if let reason = optionalString(fields["reason"], at: path + ".reason") {
            if reason.utf8.count > 123 {
                report(path + ".reason", "is \(reason.utf8.count) bytes; a close frame has room for 123")
            } else {
                close.reason = reason
            }
        }
        close.afterMessages = integer(fields["afterMessages"], at: path + ".afterMessages", in: 1...1_000_000)
        close.afterMs = integer(fields["afterMs"], at: path + ".afterMs", in: 0...3_600_000)
        return close
    }
}

extension WebSocketScript.Message {
    /// One message as a push holds it (`POST /__mock/streams/{id}/send`), or why it is not one.
    package static func parse(_ value: JSONValue) -> Result<Self, ServerEvent.Problem> {
        var parser = ContractParser(file: "the message")
        if let message = parser.parseMessage(value, at: "$"), parser.problems.isEmpty { return .success(message) }
        let first = parser.problems.first
        return .failure(ServerEvent.Problem(at: first?.path ?? "$", first?.reason ?? "is not a message"))
    }
}
