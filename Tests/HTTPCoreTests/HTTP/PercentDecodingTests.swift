@testable import HTTPCore
import Testing

/// The byte-level decoding of paths and queries, without a socket.
struct PercentDecodingTests {
    @Test(arguments: [
        ("page_no=1&items_per_page=20", "items_per_page", "20"),
        ("a=1&a=2", "a", "1"),
        ("%61=decoded%20name", "a", "decoded name"),
        ("flag&b=2", "flag", ""),
        ("b=x%3Dy&&c=%E2%82%AC", "c", "€"),
        ("b=1+2", "b", "1+2"),
        ("name=", "name", ""),
        ("a=b=c", "a", "b=c"),
        ("b=%25&a%3D=x&a==y", "a=", "x"),
        ("b=1&a=%2541", "a", "%41"),
        ("=1&a=2", "", "1"),
    ])
    func firstValue_FindsTheFirstItem(query: String, name: String, value: String) {
        #expect(PercentDecoding.isWellFormed(Substring(query)))
        #expect(PercentDecoding.firstValue(of: name, in: Substring(query)) == value)
    }

    @Test func specialQueryBytes_AreThePercentTheAmpersandAndTheEquals() {
        let bytes = (0..<64).filter { PercentDecoding.specialInQuery >> UInt64($0) & 1 == 1 }
        #expect(bytes == [37, 38, 61] && "%&=".utf8.map(Int.init) == bytes)
    }

    /// A query without a `%` is looked up as sent; the answer must be the first decoded item's, as it is for a
    /// query with one (names with `=` or `&`, empty items, missing names).
    @Test func firstValue_OfAQueryWithoutEscapes_IsTheFirstItemsValue() {
        let queries = ["a=b", "a=b=c", "a", "a&&b", "=x&a=1", "&a=", "ab=1&a=2", "x=1&a&a=2", "a=b&a=c", ""]
        let names = ["a", "a=b", "b", "ab", "a&", "&", "x", "c", "b=c", ""]
        for query in queries {
            let items = PercentDecoding.queryItems(Substring(query)) ?? []
            for name in names {
                let expected = items.first { $0.name == name }?.value
                let found = Array(query.utf8).withUnsafeBufferPointer { bytes in
                    PercentDecoding.firstValue(of: name, in: bytes, escaped: false).map { String(decoding: $0, as: UTF8.self) }
                }
                #expect(found == expected, "\(name) in \(query)")
            }
        }
    }

    /// ``QueryNames`` finds every name in one pass: for each, the first decoded item's value, as for one name at a
    /// time (the queries and names above and longer ones, a name given twice, all looked up together, then each alone).
    @Test func queryNames_FindEachNamesFirstItem_InOnePass() {
        let queries = ["a=b", "a=b=c", "a", "a&&b", "=x&a=1", "&a=", "ab=1&a=2", "x=1&a&a=2", "a=b&a=c", "", "b=1&a=2&b=3",
                       "c=&x=9&b=c=d&&ab&a=1"]
        let names = ["a", "a=b", "b", "ab", "a&", "&", "x", "c", "b=c", "", "page", "items_per_page", "items_per_pages",
                     "items_per_pagf", "a"]
        let longer = ["page=1&items_per_page=20", "items_per_pages=3&items_per_page=4&page", "items_per_pagf=5",
                      "pag=1&pagee=2&page=3", "items_per_page&items_per_page=9"]
        for query in queries + longer {
            let items = PercentDecoding.queryItems(Substring(query)) ?? []
            for wanted in [names] + names.map({ [$0] }) {
                let expected = wanted.map { name in items.first { $0.name == name }?.value }
                let found = Array(query.utf8).withUnsafeBufferPointer { bytes in
                    [Range<Int>?](unsafeUninitializedCapacity: wanted.count) { values, count in
                        values.initialize(repeating: 0..<0)
                        QueryNames(wanted).firstValues(inUnescaped: bytes, into: values)
                        count = wanted.count
                    }.map { $0.map { String(decoding: bytes[$0], as: UTF8.self) } }
                }
                #expect(found == expected, "\(wanted) in \(query)")
            }
        }
    }

    @Test func firstValue_IsNil_WhenTheNameIsAbsent() {
        #expect(PercentDecoding.firstValue(of: "a", in: nil) == nil)
        #expect(PercentDecoding.firstValue(of: "a", in: "") == nil)
        #expect(PercentDecoding.firstValue(of: "a", in: "ab=1&b=a&=a") == nil)
        #expect(PercentDecoding.firstValue(of: "a", in: "b=a&c%3D=a&aa") == nil)
        // An empty item is no item with an empty name.
        #expect(PercentDecoding.firstValue(of: "", in: "a&&b=%20") == nil)
        #expect(PercentDecoding.firstValue(of: "", in: "a&&b=%20&=x") == "x")
    }

    @Test(arguments: ["%", "a=%2", "a=%zz", "%2x=1", "a=1&b=%"])
    func malformedEscapes_AreDetected(query: String) {
        #expect(!PercentDecoding.isWellFormed(Substring(query)))
    }

    @Test func segments_SplitBeforeDecoding() {
        #expect(PercentDecoding.segments(of: "/api/products/a%2Fb") == ["api", "products", "a/b"])
        #expect(PercentDecoding.segments(of: "/a//b/") == ["a", "", "b", ""])
        #expect(PercentDecoding.segments(of: "/a/%G0") == nil)
        #expect(PercentDecoding.segments(of: "/a/%4") == nil)
        #expect(PercentDecoding.segments(of: "/") == [""])
        #expect(PercentDecoding.segments(of: "*") == [])
    }

    /// Paths of every length to 24 with a `/`, a `%41` or other bytes at each position (the word-at-a-time split
    /// takes paths of eight bytes or more without `%`): the segments are those of splitting at each `/` after the
    /// first, then decoding.
    @Test func segments_AreThoseOfASplitAtEachSlash_ForEveryLengthAndSlashPosition() {
        for length in 0...24 {
            for seed in 0..<40 {
                // A linear congruential generator (Knuth's MMIX constants): the same paths every run.
                var state = UInt64(length * 100 + seed)
                var path = ""
                while path.utf8.count < length {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    // Besides `/` and `%`, bytes one bit from them (`.` and `$`), digits and a two-byte letter: a
                    // zero-byte test that is not exact takes `/.` for two slashes.
                    switch (state >> 33) % 10 {
                    case 0, 1: path += "/"
                    case 2: path += seed % 5 == 0 ? "%41" : "b"
                    case 3: path += "."
                    case 4: path += seed % 2 == 0 ? "$" : "0"
                    case 5: path += "é"
                    default: path += "a"
                    }
                }
                let parts = path.split(separator: "/", omittingEmptySubsequences: false)
                let expected = parts.count < 2 ? [] : parts.dropFirst().map { $0.replacingOccurrences(of: "%41", with: "A") }
                #expect(PercentDecoding.segments(of: Substring(path)) == expected, "\(path)")
            }
        }
    }

    /// `zeroBytes` marks exactly the zero bytes of a word, in every lane, whatever the bytes beside them.
    @Test func zeroBytes_MarksExactlyTheZeroBytes() {
        for lane in 0..<8 {
            for value in 0...255 {
                for filler: UInt64 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                    var word: UInt64 = 0
                    for other in 0..<8 { word |= (other == lane ? UInt64(value) : filler) << UInt64(other * 8) }
                    var expected: UInt64 = 0
                    for other in 0..<8 where (word >> UInt64(other * 8)) & 0xFF == 0 { expected |= 0x80 << UInt64(other * 8) }
                    #expect(PercentDecoding.zeroBytes(word) == expected, "\(String(word, radix: 16))")
                }
            }
        }
    }

    @Test func queryItems_DecodeEveryPair_AndRejectMalformedEscapes() throws {
        let items = try #require(PercentDecoding.queryItems("a=1&&b&c=%C3%A9%2B+&=x"))
        #expect(items.map(\.name) == ["a", "b", "c", ""])
        #expect(items.map(\.value) == ["1", "", "é++", "x"])
        #expect(PercentDecoding.queryItems("a=%zz") == nil)
        #expect(PercentDecoding.queryItems(nil)?.isEmpty == true)
        #expect(PercentDecoding.queryItems("&&a=b=c&")?.map(\.value) == ["b=c"])
        #expect(PercentDecoding.queryItems("%zz=1")?.isEmpty == nil)
        // A request's, read in place in its target.
        let request = HTTPRequest(method: "GET", target: "/p?a=1&&b&c=%C3%A9%2B+&=x")
        #expect(try #require(request.queryItems).map(\.value) == ["1", "", "é++", "x"])
        #expect(HTTPRequest(method: "GET", target: "/p").queryItems?.isEmpty == true)
        #expect(HTTPRequest(method: "GET", target: "/p?").queryItems?.isEmpty == true)
        #expect(HTTPRequest(method: "GET", target: "/p?a=%G1").queryItems == nil)
    }
}
