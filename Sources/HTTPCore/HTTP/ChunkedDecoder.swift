/// Decodes a `Transfer-Encoding: chunked` body incrementally (RFC 9112 §7.1), byte by byte, so a
/// body that arrives in many reads is scanned once.
public struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size(digits: Int)
        case extensionBytes(count: Int)
        case sizeLineFeed
        case data(remaining: Int)
        case dataCarriageReturn
        case dataLineFeed
        case trailerLineStart
        case trailerLine(count: Int)
        case trailerLineFeed(emptyLine: Bool)
    }

    private var state = State.size(digits: 0)
    private var chunkSize = 0
    private var trailerBytes = 0
    private let limits: HTTPLimits
    /// The decoded body so far.
    public private(set) var body: [UInt8] = []

    public init(limits: HTTPLimits) { self.limits = limits }

    /// Hands out the body decoded so far and forgets it, for a reader that streams the body on (its limit then
    /// applies to what is held at once).
    public mutating func takeBody() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &body)
        return taken
    }

    /// Consumes bytes from `bytes`; returns how many were consumed, and whether the body ended.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(HTTPParseError) -> (consumed: Int, done: Bool) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .size(let digits):
                if let value = byte.hexDigitValue {
                    guard digits < 8 else { throw HTTPParseError(.contentTooLarge, "chunk size too large") }
                    chunkSize = chunkSize * 16 + Int(value)
                    state = .size(digits: digits + 1)
                } else if digits == 0 {
                    throw .bad("chunk size is not hexadecimal")
                } else if byte == UInt8(ascii: ";") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                    state = .extensionBytes(count: 0)
                } else if byte == UInt8(ascii: "\r") {
                    state = .sizeLineFeed
                } else {
                    throw .bad("chunk size is not hexadecimal")
                }
            case .extensionBytes(let count):
                if byte == UInt8(ascii: "\r") {
                    state = .sizeLineFeed
                } else {
                    guard count < 1024, byte != UInt8(ascii: "\n") else { throw .bad("malformed chunk extension") }
                    state = .extensionBytes(count: count + 1)
                }
            case .sizeLineFeed:
                guard byte == UInt8(ascii: "\n") else { throw .bad("chunk size line must end with CRLF") }
                guard body.count + chunkSize <= limits.bodyBytes else {
                    throw HTTPParseError(.contentTooLarge, "body exceeds \(limits.bodyBytes) bytes")
                }
                state = chunkSize == 0 ? .trailerLineStart : .data(remaining: chunkSize)
                chunkSize = 0
            case .data(let remaining):
                let take = min(remaining, bytes.count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<index + take]))
                index += take
                state = remaining == take ? .dataCarriageReturn : .data(remaining: remaining - take)
                continue
            case .dataCarriageReturn:
                guard byte == UInt8(ascii: "\r") else { throw .bad("chunk data must end with CRLF") }
                state = .dataLineFeed
            case .dataLineFeed:
                guard byte == UInt8(ascii: "\n") else { throw .bad("chunk data must end with CRLF") }
                state = .size(digits: 0)
            case .trailerLineStart:
                state = byte == UInt8(ascii: "\r") ? .trailerLineFeed(emptyLine: true) : .trailerLine(count: 1)
                try countTrailer()
            case .trailerLine(let count):
                if byte == UInt8(ascii: "\r") {
                    state = .trailerLineFeed(emptyLine: false)
                } else {
                    state = .trailerLine(count: count + 1)
                }
                try countTrailer()
            case .trailerLineFeed(let emptyLine):
                guard byte == UInt8(ascii: "\n") else { throw .bad("trailer line must end with CRLF") }
                if emptyLine { return (index + 1, true) }
                state = .trailerLineStart
            }
            index += 1
        }
        return (index, false)
    }

    private mutating func countTrailer() throws(HTTPParseError) {
        trailerBytes += 1
        guard trailerBytes <= limits.headerBytes else {
            throw HTTPParseError(.headerFieldsTooLarge, "trailer section exceeds \(limits.headerBytes) bytes")
        }
    }
}

extension UInt8 {
    /// The value of an ASCII hexadecimal digit (`0-9`, `a-f`, `A-F`), or `nil`.
    public var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
