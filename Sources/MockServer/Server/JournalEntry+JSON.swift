#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPCore

/// A journal entry written as JSON by hand: the same object as its `Encodable` form (keys sorted), in a
/// fraction of the time, since the live journal and the dashboard's refetches write many of them.
extension JournalEntry {
    /// The entry as one line of JSON.
    var json: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + requestHead.count + body.count)
        appendJSON(to: &bytes)
        return bytes
    }

    func appendJSON(to out: inout [UInt8]) {
        // The buffer moves into the writer and back, so a long array is never copied.
        var writer = JSONObjectWriter()
        swap(&writer.out, &out)
        writer.open()
        if let text = bodyText {
            if !text.isEmpty { writer.key("body"); writer.string(text) }
        } else {
            writer.key("bodyBase64"); writer.string(Data(body).base64EncodedString())
        }
        writer.key("bodySize"); writer.integer(bodySize)
        if bodyTruncated { writer.key("bodyTruncated"); writer.raw("true") }
        if let bytesSent { writer.key("bytesSent"); writer.integer(bytesSent) }
        if let delayMs { writer.key("delayMs"); writer.integer(delayMs) }
        if let durationMicroseconds {
            writer.key("durationMs")
            writer.raw(String(durationMicroseconds / 1_000))
            let fraction = durationMicroseconds % 1_000
            if fraction != 0 {
                var digits = String(fraction)
                digits = String(repeating: "0", count: 3 - digits.count) + digits
                while digits.hasSuffix("0") { digits.removeLast() }
                writer.raw("." + digits)
            }
        }
        if let endpoint { writer.key("endpoint"); writer.string(endpoint) }
        if let fault { writer.key("fault"); writer.string(fault.rawValue) }
        writer.key("headers"); writer.pairs(shownFields)
        if let message {
            writer.key("message")
            writer.raw(#"{"direction":"# + "\"\(message.direction.rawValue)\",\"kind\":\"\(message.kind.rawValue)\"}")
        }
        writer.key("method"); writer.string(method.rawValue)
        if proxied { writer.key("proxied"); writer.raw("true") }
        if let reason { writer.key("reason"); writer.string(reason) }
        if durationMicroseconds != nil {
            writer.key("responseHeaders")
            writer.responseHeaders(head: responseHead, length: responseLength)
        }
        if let scenario { writer.key("scenario"); writer.string(scenario) }
        if let scenarioSequence { writer.key("scenarioSequence"); writer.string(scenarioSequence) }
        if let scenarioStep { writer.key("scenarioStep"); writer.integer(scenarioStep) }
        if let rule { writer.key("rule"); writer.integer(rule) }
        if let selectedBy { writer.key("selectedBy"); writer.string(selectedBy) }
        writer.key("sequence"); writer.integer(sequence)
        if let session { writer.key("session"); writer.string(session) }
        if let status { writer.key("status"); writer.integer(status) }
        writer.key("target"); writer.string(target)
        writer.key("time"); writer.string(time)
        writer.key("violations")
        writer.raw("[")
        for (index, violation) in violations.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(violation)
        }
        writer.raw("]")
        out = writer.finish()
    }

    /// Entries as a JSON array, as `GET /__mock/journal` answers.
    static func jsonArray(_ entries: [JournalEntry]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(entries.count * 400)
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            entry.appendJSON(to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }
}

/// Writes one JSON object's members into a byte buffer, escaping strings as `JSONEncoder` does with
/// `.withoutEscapingSlashes`.
private struct JSONObjectWriter {
    var out: [UInt8] = []
    private var first = true

    mutating func open() { out.append(UInt8(ascii: "{")) }

    mutating func key(_ name: StaticString) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func raw(_ text: String) { out.append(contentsOf: text.utf8) }

    mutating func integer(_ value: Int) { out.append(contentsOf: String(value).utf8) }

    mutating func pairs(_ pairs: [(name: String, value: String)]) {
        out.append(UInt8(ascii: "["))
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            string(pair.name)
            out.append(UInt8(ascii: ","))
            string(pair.value)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// The header fields of a prepared response head (after its status line) as `[name, value]` pairs, and
    /// the announced length, written from the bytes without making strings.
    mutating func responseHeaders(head: [UInt8], length: Int?) {
        out.append(UInt8(ascii: "["))
        var first = true
        HeadFields.forEach(in: head) { name, value in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "["))
            bytes(head[name])
            out.append(UInt8(ascii: ","))
            bytes(head[value])
            out.append(UInt8(ascii: "]"))
        }
        if let length {
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: Array(#"["Content-Length","#.utf8))
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: String(length).utf8)
            out.append(contentsOf: Array("\"]".utf8))
        }
        out.append(UInt8(ascii: "]"))
    }

    mutating func string(_ text: String) { bytes(text.utf8) }

    /// UTF-8 `text` as a JSON string.
    mutating func bytes(_ text: some Sequence<UInt8>) {
        out.append(UInt8(ascii: "\""))
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, UInt8(ascii: "\"")])
            case 92: out.append(contentsOf: [92, 92])
            case 10: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 13: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 9: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 8: out.append(contentsOf: [92, UInt8(ascii: "b")])
            case 12: out.append(contentsOf: [92, UInt8(ascii: "f")])
            case 0..<32:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    consuming func finish() -> [UInt8] {
        out.append(UInt8(ascii: "}"))
        return out
    }
}
