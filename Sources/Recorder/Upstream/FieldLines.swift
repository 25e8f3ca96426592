import HTTPCore

/// A response head's header fields as the target sent them: the bytes of their lines and where each name and value
/// lie in them. Read on bytes on the proxy's path (framing, hop-by-hop fields, the head the client gets), so that a
/// relayed response makes no `String` per field; ``fields`` makes them when someone asks (the recording, the drift
/// check).
struct FieldLines: Sendable {
    /// Each field's name and value, trimmed of spaces, as ranges of ``bytes``.
    struct Span: Sendable {
        let name: Range<Int>
        let value: Range<Int>
    }

    private(set) var bytes: [UInt8] = []
    private(set) var spans: [Span] = []

    mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        let nameStart = bytes.count
        bytes.append(contentsOf: name)
        let valueStart = bytes.count
        bytes.append(contentsOf: value)
        spans.append(Span(name: nameStart..<valueStart, value: valueStart..<bytes.count))
    }

    var fields: [UpstreamResponse.Field] {
        spans.map { .init(name: text(bytes[$0.name]), value: text(bytes[$0.value])) }
    }

    /// Whether the field at `index` is named `name` (lower case), ignoring ASCII case.
    func isNamed(_ index: Int, _ name: String) -> Bool {
        equals(spans[index].name, name)
    }

    /// Whether the field at `index` is named by one of `names` (lower case).
    func isNamed(_ index: Int, oneOf names: [String]) -> Bool {
        names.contains { isNamed(index, $0) }
    }

    func value(_ index: Int) -> ArraySlice<UInt8> { bytes[spans[index].value] }

    /// The comma-separated elements of the value at `index`, trimmed of spaces and tabs, as byte ranges of ``bytes``
    /// (RFC 9110 §5.6.1): read without making strings.
    func elementRanges(_ index: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = spans[index].value.lowerBound
        let end = spans[index].value.upperBound
        while start <= end {
            let comma = bytes[start..<end].firstIndex(of: UInt8(ascii: ",")) ?? end
            var (low, high) = (start, comma)
            while low < high, bytes[low] == UInt8(ascii: " ") || bytes[low] == 9 { low += 1 }
            while high > low, bytes[high - 1] == UInt8(ascii: " ") || bytes[high - 1] == 9 { high -= 1 }
            if low < high { ranges.append(low..<high) }
            start = comma + 1
        }
        return ranges
    }

    /// Whether the bytes at `range` are `text`, ignoring ASCII case (`text` in lower case).
    func equals(_ range: Range<Int>, _ text: String) -> Bool {
        range.count == text.utf8.count
            && zip(bytes[range], text.utf8).allSatisfy { HTTPHeaders.lower($0) == $1 }
    }

    /// Whether the value at `index` lists `element` (lower case), ignoring ASCII case.
    func lists(_ index: Int, _ element: String) -> Bool {
        elementRanges(index).contains { equals($0, element) }
    }

    /// ``elementRanges(_:)`` as lower-cased strings, where a caller needs them as strings.
    func elements(_ index: Int) -> [String] {
        elementRanges(index).map { text(bytes[$0]).lowercased() }
    }

    private func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
