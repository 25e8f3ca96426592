@testable import HTTPCore
@testable import MockServer
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
    ])
    func firstValue_FindsTheFirstItem(query: String, name: String, value: String) {
        #expect(PercentDecoding.isWellFormed(Substring(query)))
        #expect(PercentDecoding.firstValue(of: name, in: Substring(query)) == value)
    }

    @Test func firstValue_IsNil_WhenTheNameIsAbsent() {
        #expect(PercentDecoding.firstValue(of: "a", in: nil) == nil)
        #expect(PercentDecoding.firstValue(of: "a", in: "") == nil)
        #expect(PercentDecoding.firstValue(of: "a", in: "ab=1&b=a&=a") == nil)
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

    @Test func queryItems_DecodeEveryPair_AndRejectMalformedEscapes() throws {
        let items = try #require(PercentDecoding.queryItems("a=1&&b&c=%C3%A9%2B+&=x"))
        #expect(items.map(\.name) == ["a", "b", "c", ""])
        #expect(items.map(\.value) == ["1", "", "é++", "x"])
        #expect(PercentDecoding.queryItems("a=%zz") == nil)
        #expect(PercentDecoding.queryItems(nil)?.isEmpty == true)
    }
}
