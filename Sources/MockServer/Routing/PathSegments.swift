import HTTPCore

/// A request path's percent-decoded segments as the router takes them: byte buffers on the stack, slices
/// of the path itself or of its decoded bytes, so routing a request allocates nothing for its path.
enum PathSegments {
    typealias Segments = UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>

    /// Runs `body` on the segments of `path` (see ``PercentDecoding/split(_:into:decodingInto:)``), which
    /// live only as long as the call; returns `false`, without calling it, for a malformed escape.
    // `body` returns nothing: a result handed back through the nested closures was copied at each level.
    static func with(_ path: Substring, _ body: (Segments) -> Void) -> Bool {
        // The parser's paths are contiguous; another substring is copied first.
        if let split = path.utf8.withContiguousStorageIfAvailable({ split($0, body) }) { return split }
        return Array(path.utf8).withUnsafeBufferPointer { split($0, body) }
    }

    /// ``with(_:_:)`` on the path of `request`, read in place.
    static func with(pathOf request: HTTPRequest, _ body: (Segments) -> Void) -> Bool {
        var wellFormed = false
        request.withPathBytes { wellFormed = split($0, body) }
        return wellFormed
    }

    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Segments) -> Void) -> Bool {
        // A path has at most as many segments as bytes: a short one's are not counted first (counting is a pass
        // over the path); a long one's are, to keep the stack small.
        let capacity = bytes.count <= 64 ? bytes.count : PercentDecoding.segmentCapacity(of: bytes)
        let stride = MemoryLayout<UnsafeBufferPointer<UInt8>>.stride
        // One stack allocation: the segments, then the scratch bytes for the decoded ones.
        return withUnsafeTemporaryAllocation(byteCount: capacity * stride + bytes.count,
                                             alignment: MemoryLayout<UnsafeBufferPointer<UInt8>>.alignment) { raw in
            let segments = UnsafeMutableRawBufferPointer(rebasing: raw[..<(capacity * stride)])
                .bindMemory(to: UnsafeBufferPointer<UInt8>.self)
            let scratch = UnsafeMutableRawBufferPointer(rebasing: raw[(capacity * stride)...]).bindMemory(to: UInt8.self)
            guard let count = PercentDecoding.split(bytes, into: segments, decodingInto: scratch) else { return false }
            body(UnsafeBufferPointer(rebasing: segments[..<count]))
            return true
        }
    }

    /// Whether `segment` is exactly `text`'s bytes: paths match byte for byte, as sent once decoded.
    static func equal(_ segment: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable {
            ShortBytes.equal(UnsafeRawBufferPointer(segment), UnsafeRawBufferPointer($0))
        } ?? text.utf8.elementsEqual(segment)
    }

    static func text(_ segment: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: segment, as: UTF8.self)
    }
}
