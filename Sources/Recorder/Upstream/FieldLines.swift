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

    /// Whether the field at `index` is named `name`, ignoring ASCII case.
    func isNamed(_ index: Int, _ name: String) -> Bool {
        let span = spans[index].name
        guard span.count == name.utf8.count else { return false }
        return zip(bytes[span], name.utf8).allSatisfy { HTTPHeaders.lower($0) == HTTPHeaders.lower($1) }
    }

    /// Whether the field at `index` is named by one of `names` (lower case).
    func isNamed(_ index: Int, oneOf names: [String]) -> Bool {
        names.contains { isNamed(index, $0) }
    }

    func value(_ index: Int) -> ArraySlice<UInt8> { bytes[spans[index].value] }

    /// The comma-separated elements of the value at `index`, trimmed of spaces and lower-cased (RFC 9110 §5.6.1).
    func elements(_ index: Int) -> [String] {
        value(index).split(separator: UInt8(ascii: ",")).map { element in
            text(element).trimmingSpaces().lowercased()
        }
    }

    private func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
