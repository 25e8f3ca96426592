/// Why bytes are not a JSON document, with the line and column where they stop being one.
package struct JSONReadError: Error, Equatable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let reason: String

    package var description: String { "line \(line), column \(column): \(reason)" }
}

/// A strict RFC 8259 reader over bytes. Foundation's decoder says only "The given data was not valid
/// JSON." and throws for every type it tries while decoding an untyped value; this reader names the
/// position and builds ``JSONValue``s directly, which also keeps start-up fast.
struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0

    static let maximumDepth = 512

    static func read(_ bytes: [UInt8]) throws(JSONReadError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        reader.skipWhitespace()
        let value = try reader.value()
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.failure("unexpected text after the document") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 32 || byte == 9 || byte == 10 || byte == 13 { index += 1 }
    }

    private func failure(_ reason: String, at position: Int? = nil) -> JSONReadError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(position ?? index, bytes.count)] {
            if byte == 10 { line += 1; column = 1 } else { column += 1 }
        }
        return JSONReadError(line: line, column: column, reason: reason)
    }

    /// Reads one value. Iterative, with the open containers on the heap: nesting costs no stack, so a
    /// deep document cannot overflow a thread's (Darwin gives secondary threads 512 KB). Arrays and
    /// objects being filled live in their own stacks and are appended to in place: taking one out to
    /// append would copy it every time, and make a large body quadratic.
    private mutating func value() throws(JSONReadError) -> JSONValue {
        var isArray: [Bool] = []                                   // innermost last
        var arrays: [[JSONValue]] = []
        var objects: [[String: JSONValue]] = []
        var keys: [String] = []                                    // the key being read, per open object
        while true {
            guard isArray.count < Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) levels") }
            guard let byte = current else { throw failure("unexpected end of the document") }
            var value: JSONValue
            switch byte {
            case UInt8(ascii: "{"):
                index += 1
                skipWhitespace()
                guard current == UInt8(ascii: "}") else {
                    keys.append(try key())
                    objects.append([:])
                    isArray.append(false)
                    continue
                }
                index += 1
                value = .object([:])
            case UInt8(ascii: "["):
                index += 1
                skipWhitespace()
                guard current == UInt8(ascii: "]") else {
                    arrays.append([])
                    isArray.append(true)
                    continue
                }
                index += 1
                value = .array([])
            case UInt8(ascii: "\""): value = .string(try string())
            case UInt8(ascii: "t"): try literal("true"); value = .bool(true)
            case UInt8(ascii: "f"): try literal("false"); value = .bool(false)
            case UInt8(ascii: "n"): try literal("null"); value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try number())
            default:
                let shown = byte >= 32 && byte < 127 ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
                throw failure("unexpected \(shown)")
            }
            // Hand the value to the innermost open container, closing every container that ends here.
            closing: while let inArray = isArray.last {
                skipWhitespace()
                if inArray {
                    arrays[arrays.count - 1].append(value)
                    switch current {
                    case UInt8(ascii: ","):
                        index += 1
                        skipWhitespace()
                        break closing
                    case UInt8(ascii: "]"):
                        index += 1
                        isArray.removeLast()
                        value = .array(arrays.removeLast())
                    case nil: throw failure("unexpected end of the document")
                    default: throw failure("expected ',' or ']'")
                    }
                } else {
                    let last = objects.count - 1
                    objects[last][keys[last]] = value
                    switch current {
                    case UInt8(ascii: ","):
                        index += 1
                        keys[last] = try key()
                        break closing
                    case UInt8(ascii: "}"):
                        index += 1
                        isArray.removeLast()
                        keys.removeLast()
                        value = .object(objects.removeLast())
                    case nil: throw failure("unexpected end of the document")
                    default: throw failure("expected ',' or '}'")
                    }
                }
            }
            if isArray.isEmpty { return value }
        }
    }

    /// An object's next key and its colon, leaving the reader at the value.
    private mutating func key() throws(JSONReadError) -> String {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
        let key = try string()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw failure("expected ':' after the key") }
        index += 1
        skipWhitespace()
        return key
    }

    private mutating func string() throws(JSONReadError) -> String {
        let start = index
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                if scalars.isEmpty {
                    // No escape: the string is the run itself, once it is known to be valid UTF-8.
                    try validateUTF8(runStart..<index)
                    let text = String(decoding: bytes[runStart..<index], as: UTF8.self)
                    index += 1
                    return text
                }
                try appendUTF8(runStart..<index, to: &scalars)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try appendUTF8(runStart..<index, to: &scalars)
                scalars.append(try escape())
                runStart = index
            case 0..<32:
                throw failure("control character inside a string")
            default:
                index += 1
            }
        }
        throw failure("unterminated string", at: start)
    }

    /// Rejects a run of raw string bytes that is not valid UTF-8, as RFC 8259 §8.1 requires.
    private func validateUTF8(_ range: Range<Int>) throws(JSONReadError) {
        guard bytes[range].contains(where: { $0 >= 0x80 }) else { return }
        var iterator = bytes[range].makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return
            case .error: throw failure("invalid UTF-8 inside a string", at: range.lowerBound)
            }
        }
    }

    /// Decodes a run of raw string bytes, rejecting invalid UTF-8 as RFC 8259 §8.1 requires.
    private func appendUTF8(_ range: Range<Int>, to scalars: inout String.UnicodeScalarView) throws(JSONReadError) {
        try validateUTF8(range)
        scalars.append(contentsOf: String(decoding: bytes[range], as: UTF8.self).unicodeScalars)
    }

    /// An escape sequence after `\`, including UTF-16 surrogate pairs; lone surrogates become U+FFFD.
    private mutating func escape() throws(JSONReadError) -> Unicode.Scalar {
        index += 1
        guard let byte = current else { throw failure("unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hexQuad()
            if (0xD800..<0xDC00).contains(high), current == UInt8(ascii: "\\"), index + 1 < bytes.count,
               bytes[index + 1] == UInt8(ascii: "u") {
                let save = index
                index += 2
                let low = try hexQuad()
                if (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                }
                index = save
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            throw failure("invalid escape '\\\(Character(UnicodeScalar(byte)))'", at: index - 2)
        }
    }

    private mutating func hexQuad() throws(JSONReadError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexDigit(byte) else { throw failure("expected 4 hex digits") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONReadError) {
        let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw failure("expected \(word)")
        }
        index += expected.count
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, finite.
    private mutating func number() throws(JSONReadError) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (48...57).contains(first) else { throw failure("expected a digit") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, (48...57).contains(digit) else { throw failure("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, (48...57).contains(digit) else { throw failure("expected an exponent") }
            skipDigits()
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw failure("number out of range", at: start)
        }
        return value
    }

    private mutating func skipDigits() {
        while let byte = current, (48...57).contains(byte) { index += 1 }
    }
}
