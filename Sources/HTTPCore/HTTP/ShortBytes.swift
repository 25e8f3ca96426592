/// Comparing short runs of bytes (query names, path segments, the parser's method and field-name literals, a field's
/// short value against the last request's) in place: a word at a time and inlined, where a call to `memcmp` costs more
/// than the comparison itself. Long runs are better left to `memcmp`, which takes a vector at a time.
public enum ShortBytes {
    /// Whether the `count` bytes at `a` equal those at `b`: eight at a time, the last eight (or four, or two)
    /// overlapping the ones before.
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        switch count {
        case 8...:
            var offset = 0
            while offset + 8 < count {
                guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                offset += 8
            }
            return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        case 4...:
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        case 2...:
            return a.loadUnaligned(as: UInt16.self) == b.loadUnaligned(as: UInt16.self)
                && a.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
                    == b.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
        case 1:
            return a.load(as: UInt8.self) == b.load(as: UInt8.self)
        default:
            return true
        }
    }

    /// Whether `a` and `b` hold the same bytes.
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        return equal(left, right, count: a.count)
    }
}
