#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's byte search and comparison, which take a vector at a time where a Swift loop takes a byte.
extension POSIX {
    /// The index of the first `byte` in `bytes[range]`, or `nil`.
    @inline(__always)
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard let base = bytes.baseAddress, !range.isEmpty else { return nil }
        return memchr(base + range.lowerBound, Int32(byte), range.count).map { UnsafeRawPointer($0) - base }
    }

    /// Whether `lhs` and `rhs` hold the same bytes.
    @inline(__always)
    public static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return memcmp(left, right, lhs.count) == 0
    }

    /// The text of a C string in a buffer, up to its first NUL (or the buffer's end), as UTF-8.
    /// (`String(cString:)` on an array is deprecated in Swift 6.)
    static func string(nulTerminated buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
