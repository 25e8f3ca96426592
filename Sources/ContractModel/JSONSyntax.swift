/// Finds where a document stops being JSON, for error messages: Foundation's decoder only says
/// "The given data was not valid JSON." A small recursive-descent scan over bytes; it does not build values.
enum JSONSyntax {
    /// `line N, column M: reason` for the first syntax error, or `nil` if the document is valid JSON.
    static func firstError(in bytes: some Collection<UInt8>) -> String? {
        var scanner = Scanner(bytes: Array(bytes))
        do throws(Failure) {
            scanner.skipWhitespace()
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            guard scanner.index == scanner.bytes.count else { throw scanner.failure("unexpected text after the document") }
            return nil
        } catch {
            return error.message
        }
    }

    private struct Failure: Error {
        let message: String
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [32, 9, 10, 13].contains(bytes[index]) { index += 1 }
        }

        func failure(_ reason: String) -> Failure {
            var line = 1
            var column = 1
            for byte in bytes[..<min(index, bytes.count)] {
                if byte == 10 { line += 1; column = 1 } else { column += 1 }
            }
            return Failure(message: "line \(line), column \(column): \(reason)")
        }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < 512 else { throw failure("nested too deeply") }
            guard index < bytes.count else { throw failure("unexpected end of the document") }
            switch bytes[index] {
            case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), depth: depth, keyed: true)
            case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), depth: depth, keyed: false)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): number()
            default: throw failure("unexpected character '\(Character(UnicodeScalar(bytes[index])))'")
            }
        }

        private mutating func container(close: UInt8, depth: Int, keyed: Bool) throws(Failure) {
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == close { index += 1; return }
            while true {
                skipWhitespace()
                if keyed {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw failure("expected a quoted key")
                    }
                    try string()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                    index += 1
                    skipWhitespace()
                }
                try value(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw failure("unexpected end of the document") }
                if bytes[index] == close { index += 1; return }
                guard bytes[index] == UInt8(ascii: ",") else {
                    throw failure("expected ',' or '\(Character(UnicodeScalar(close)))'")
                }
                index += 1
                skipWhitespace()
                // Foundation's decoder accepts a trailing comma; so does this scan, to agree with it.
                if index < bytes.count, bytes[index] == close { index += 1; return }
            }
        }

        private mutating func string() throws(Failure) {
            let start = index
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""): index += 1; return
                case UInt8(ascii: "\\"): index += 2
                case 0..<32: throw failure("control character inside a string")
                default: index += 1
                }
            }
            index = start
            throw failure("unterminated string")
        }

        private mutating func literal(_ word: String) throws(Failure) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw failure("expected \(word)")
            }
            index += expected.count
        }

        private mutating func number() {
            while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
        }
    }
}
