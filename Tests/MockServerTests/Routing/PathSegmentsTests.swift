@testable import MockServer
import Testing

/// The router's path split (``PathSegments``): percent-decoded segments, compared byte for byte.
struct PathSegmentsTests {
    /// The server's split: segments as bytes of the path or of the scratch space, several decoded segments
    /// side by side in it, a path that is not contiguous copied first.
    @Test func pathSegments_AreSlicesOfThePath_OrDecodedIntoScratch() {
        func split(_ path: Substring) -> [String]? {
            var texts: [String] = []
            let wellFormed = PathSegments.with(path) { texts = $0.map(PathSegments.text) }
            return wellFormed ? texts : nil
        }
        #expect(split("/a%2Fb/c/%41%42/%25") == ["a/b", "c", "AB", "%"])
        #expect(split("/api/products?x=1".split(separator: "?")[0]) == ["api", "products"])
        #expect(split("/é/%C3%A9") == ["é", "é"])
        #expect(split("/ok/%4") == nil)
        #expect(split("/%zz/ok") == nil)
        #expect(split("*") == [])
        #expect(split("//") == ["", ""])
        // A substring of a bridged or otherwise non-contiguous string takes the copying path; the same answer.
        let padded = String(repeating: "x", count: 3) + "/long%2Fsegment/" + String(repeating: "y", count: 40)
        #expect(split(padded.dropFirst(3)) == ["long/segment", String(repeating: "y", count: 40)])
        // As many segments as bytes, on either side of the length past which they are counted first.
        for count in [63, 64, 65, 200] {
            #expect(split(Substring(String(repeating: "/", count: count))) == Array(repeating: "", count: count))
        }
        #expect(split(Substring(String(repeating: "/a", count: 40))) == Array(repeating: "a", count: 40))
    }

    /// Paths match byte for byte once decoded: an escape and the character it stands for are the same
    /// segment, two spellings of one Unicode character are not.
    @Test func pathSegments_CompareByteForByte() {
        var results: [Bool] = []
        _ = PathSegments.with("/caf%C3%A9/cafe%CC%81") { segments in
            results = segments.map { PathSegments.equal($0, "caf\u{E9}") }
        }
        #expect(results == [true, false])
    }
}
