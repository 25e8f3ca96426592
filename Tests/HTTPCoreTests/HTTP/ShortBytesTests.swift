import HTTPCore
import Testing

/// The word-at-a-time comparison that query names and path segments are matched with.
struct ShortBytesTests {
    /// Every length up to 40, equal, then differing in each position in turn (the overlapping last word included).
    @Test func equal_FindsADifferenceAtAnyPosition_OfAnyLength() {
        for count in 0...40 {
            let text = (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            // Built apart, so that the two are not one storage.
            let same = (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            #expect(text.withUnsafeBytes { a in same.withUnsafeBytes { b in ShortBytes.equal(a, b) } }, "\(count)")
            for position in 0..<count {
                var other = text
                other[position] ^= 0x20
                let same = text.withUnsafeBytes { a in other.withUnsafeBytes { b in ShortBytes.equal(a, b) } }
                #expect(!same, "length \(count), position \(position)")
            }
            let longer = text + [UInt8(ascii: "z")]
            #expect(!text.withUnsafeBytes { a in longer.withUnsafeBytes { b in ShortBytes.equal(a, b) } })
        }
    }
}
