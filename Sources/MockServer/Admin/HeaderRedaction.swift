import HTTPCore

/// Keeps secrets out of what the journal shows: the values of credential headers appear as their scheme and
/// length (`Bearer <redacted, 36 bytes>`), so a test can still assert that a token was sent, but the admin
/// API, the event stream and the dashboard never show it.
///
/// The journal records which fields are secret (``recorded(_:)``, on every request) and redacts them when an entry
/// is read (``shown(_:marks:)``): writing the redacted values makes new strings, which every request with a
/// credential would pay for, where only the entries someone reads need them.
///
/// Rules of the request path in this folder: secrets are marked on arrival and redacted only when an entry is read,
/// as above. Redacted as they are recorded are only a head with a secret past its 64th field, which the marks cannot
/// hold, and a relayed response's head, once the reply was sent (``redactedHead(_:)``). A request body's secret
/// fields are redacted as the body is captured on arrival (``BodyRedaction``): only a request with a body pays for it.
/// Measure a change to this path with `Tests/Benchmarks/instructions.sh` before and after; figures go to
/// Tests/Benchmarks/HISTORY.md, not here.
struct HeaderRedaction: Sendable {
    static let defaultNames = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]

    /// The names of the fields to redact, ASCII-lowercased; the first two (`Authorization` and
    /// `Proxy-Authorization`) keep their scheme.
    private let names: [[UInt8]]
    /// Bit `n % 64` is set when a secret name has `n` bytes: most fields are told apart by length alone.
    private let lengths: UInt64

    /// - Parameters:
    ///   - extraNames: Further headers to redact (`--redact-header`).
    ///   - enabled: `false` keeps every value as sent (`--journal-secrets`).
    init(extraNames: [String], enabled: Bool) {
        let names = enabled ? Self.defaultNames + extraNames : []
        self.names = names.map { $0.utf8.map(HTTPHeaders.lower) }
        lengths = names.reduce(0) { $0 | HTTPHeaders.lengthBit($1) }
    }

    /// Which fields are secret: bit `n` of ``redacted`` for field `n`, and of ``keepingScheme`` when it keeps
    /// its scheme. Only the first 64 fields can be marked; the journal redacts a head with a secret past them
    /// as it records it (``recorded(_:)``).
    struct Marks: Sendable, Equatable {
        var redacted: UInt64 = 0
        var keepingScheme: UInt64 = 0
    }

    /// The request's head as the journal records it, and the secret fields in it. This runs for every journaled
    /// request: most carry no credential and cost one test of the lengths of their names.
    func recorded(_ request: HTTPRequest) -> (head: [UInt8], marks: Marks) {
        // No field has a secret's length (most requests): the fields are not looked at.
        guard request.headers.mayHaveName(ofLengthIn: lengths) else { return (request.head, Marks()) }
        var marks = Marks()
        let fields = request.headers.fields
        for index in fields.indices {
            guard let secret = position(of: fields[index].name) else { continue }
            guard index < 64 else { return (redactedHead(request.head), Marks()) }
            marks.redacted |= 1 << UInt64(index)
            if secret < 2 { marks.keepingScheme |= 1 << UInt64(index) }
        }
        return (request.head, marks)
    }

    /// Recorded `fields` as the journal shows them: the ones `marks` marks redacted.
    static func shown(_ fields: [(name: String, value: String)], marks: Marks) -> [(name: String, value: String)] {
        guard marks.redacted != 0 else { return fields }
        return fields.indices.map { index in
            guard index < 64, marks.redacted >> UInt64(index) & 1 == 1 else { return fields[index] }
            let keepingScheme = marks.keepingScheme >> UInt64(index) & 1 == 1
            return (fields[index].name, redacted(fields[index].value, keepingScheme: keepingScheme))
        }
    }

    /// A head (a request or status line, then `name: value` lines; see ``HeadFields``) with the values of its secret
    /// fields redacted: as the journal shows a relayed response (a backend's `Set-Cookie` carries a session), and
    /// records a request whose secrets the marks cannot hold. `head` itself when it has none.
    func redactedHead(_ head: [UInt8]) -> [UInt8] {
        guard !names.isEmpty else { return head }
        var redactedHead: [UInt8] = []
        var copied = head.startIndex
        HeadFields.forEach(in: head) { name, value in
            guard let secret = head[name].withUnsafeBufferPointer({ position(of: $0) }) else { return }
            redactedHead += head[copied..<value.lowerBound]
            redactedHead += Self.redacted(String(decoding: head[value], as: UTF8.self), keepingScheme: secret < 2).utf8
            copied = value.upperBound
        }
        guard copied > head.startIndex else { return head }
        return redactedHead + head[copied...]
    }

    /// Where `field` is among ``names``, in any ASCII case, if it is a secret. On its bytes, read in place:
    /// comparing each name's strings cost more, for every field whose name has a secret's length.
    private func position(of field: String) -> Int? {
        guard lengths & HTTPHeaders.lengthBit(field) != 0 else { return nil }
        let found = field.utf8.withContiguousStorageIfAvailable { bytes in position(of: bytes) }
        if let found { return found }
        return Array(field.utf8).withUnsafeBufferPointer { position(of: $0) }
    }

    private func position(of field: UnsafeBufferPointer<UInt8>) -> Int? {
        for position in names.indices where names[position].count == field.count {
            let same = names[position].withUnsafeBufferPointer { name in
                for index in 0..<field.count where HTTPHeaders.lower(field[index]) != name[index] { return false }
                return true
            }
            if same { return position }
        }
        return nil
    }

    /// A secret value as journaled: `<redacted, N bytes>`, after the value's scheme when `keepingScheme` and
    /// it has one (the text before its first space; N then counts the bytes after the spaces that follow).
    static func redacted(_ value: String, keepingScheme: Bool) -> String {
        // Written into one string on the UTF-8 bytes: by characters and by interpolation, or appended part by
        // part, a bearer token's redaction cost more.
        var value = value
        return value.withUTF8 { bytes in
            var schemeEnd = -1
            var secretStart = 0
            if keepingScheme, let space = bytes.firstIndex(of: UInt8(ascii: " ")) {
                schemeEnd = space
                secretStart = space
                while secretStart < bytes.count, bytes[secretStart] == UInt8(ascii: " ") { secretStart += 1 }
            }
            let length = bytes.count - secretStart
            var digits = 1
            var rest = length
            while rest >= 10 { rest /= 10; digits += 1 }
            let opening: StaticString = "<redacted, "
            let closing: StaticString = " bytes>"
            let scheme = max(0, schemeEnd + 1)
            let count = scheme + opening.utf8CodeUnitCount + digits + closing.utf8CodeUnitCount
            return String(unsafeUninitializedCapacity: count) { output in
                var at = 0
                func put(_ source: UnsafeBufferPointer<UInt8>) {
                    for byte in source { output[at] = byte; at += 1 }
                }
                put(UnsafeBufferPointer(rebasing: bytes[..<max(0, schemeEnd)]))
                if schemeEnd >= 0 { output[at] = UInt8(ascii: " "); at += 1 }
                put(UnsafeBufferPointer(start: opening.utf8Start, count: opening.utf8CodeUnitCount))
                var value = length
                for place in stride(from: at + digits - 1, through: at, by: -1) {
                    output[place] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                at += digits
                put(UnsafeBufferPointer(start: closing.utf8Start, count: closing.utf8CodeUnitCount))
                return at
            }
        }
    }
}
