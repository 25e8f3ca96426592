extension Array {
    /// Empties the array, keeping its storage when uniquely held, as `removeAll(keepingCapacity: true)` does, but
    /// element by element from the end: for a request's few fields that costs less than the standard one, which
    /// goes through a generic `replaceSubrange`. Inlinable: a generic function called from another module otherwise
    /// runs unspecialized.
    @inlinable
    package mutating func removeAllKeepingStorage() {
        while !isEmpty { removeLast() }
    }
}

extension Array where Element == UInt8 {
    /// Makes these bytes `bytes`' copy, in this array's storage when no one else holds it: bytes of the same length
    /// (a connection's requests, most often, or the journal's entries for one endpoint) are copied over in place,
    /// where `replaceSubrange` is generic code. Inlinable, as ``removeAllKeepingStorage()``.
    @inlinable
    package mutating func overwrite(with bytes: UnsafeRawBufferPointer) {
        guard count == bytes.count, count > 0 else { return replaceSubrange(0..<count, with: bytes) }
        withUnsafeMutableBytes { $0.copyMemory(from: bytes) }
    }
}
