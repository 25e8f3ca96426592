import ContractModel
import Testing

/// Entity tags (RFC 9110 §8.8.3) and the If-Match / If-None-Match comparisons (§13.1.1, §13.1.2).
struct EntityTagTests {
    private static func tag(_ opaque: String, weak: Bool = false) throws -> EntityTag {
        try #require(EntityTag(opaque: opaque, isWeak: weak))
    }

    // MARK: - Comparison

    /// RFC 9110 §8.8.3.2, the table: ETag 1, ETag 2, strong comparison, weak comparison.
    @Test(arguments: [
        (#"W/"1""#, #"W/"1""#, false, true),
        (#"W/"1""#, #"W/"2""#, false, false),
        (#"W/"1""#, #""1""#, false, true),
        (#""1""#, #""1""#, true, true),
    ])
    func comparison_FollowsTheTableOfSection8_8_3_2(first: String, second: String, strong: Bool, weak: Bool) throws {
        let one = try #require(Self.single(first))
        let two = try #require(Self.single(second))
        #expect(one.matchesStrongly(two) == strong)
        #expect(two.matchesStrongly(one) == strong)
        #expect(one.matchesWeakly(two) == weak)
        #expect(two.matchesWeakly(one) == weak)
    }

    private static func single(_ header: String) -> EntityTag? {
        guard case .tags(let tags) = EntityTag.parseList(header), tags.count == 1 else { return nil }
        return tags[0]
    }

    // MARK: - If-Match

    @Test func ifMatch_Succeeds_WhenAListedTagIsStronglyEqual() throws {
        let condition = try #require(EntityTag.parseList(#""x", "y""#))
        #expect(condition.matchesStrongly(try Self.tag("y")))
    }

    @Test func ifMatch_Fails_WhenOnlyAWeakTagHasTheSameOpaqueValue() throws {
        let condition = try #require(EntityTag.parseList(#"W/"y""#))
        #expect(condition.matchesStrongly(try Self.tag("y")) == false)
        #expect(condition.matchesStrongly(try Self.tag("y", weak: true)) == false)
        #expect(EntityTag.Condition.tags([try Self.tag("y")]).matchesStrongly(try Self.tag("y", weak: true)) == false)
    }

    @Test func ifMatch_Fails_WhenNoTagMatches_OrTheItemIsMissing() throws {
        let condition = try #require(EntityTag.parseList(#""x""#))
        #expect(condition.matchesStrongly(try Self.tag("z")) == false)
        #expect(condition.matchesStrongly(nil) == false)
    }

    @Test func ifMatch_Star_MatchesAnyExistingItem_ButNotAMissingOne() throws {
        #expect(EntityTag.Condition.any.matchesStrongly(try Self.tag("whatever")))
        #expect(EntityTag.Condition.any.matchesStrongly(try Self.tag("weak", weak: true)))
        #expect(EntityTag.Condition.any.matchesStrongly(nil) == false)
    }

    // MARK: - If-None-Match

    @Test func ifNoneMatch_Fails_WhenAListedTagMatchesWeakly() throws {
        let condition = try #require(EntityTag.parseList(#"W/"a", "b""#))
        #expect(condition.noneMatchWeakly(try Self.tag("a")) == false)
        #expect(condition.noneMatchWeakly(try Self.tag("a", weak: true)) == false)
        #expect(condition.noneMatchWeakly(try Self.tag("b", weak: true)) == false)
    }

    @Test func ifNoneMatch_Succeeds_WhenNoTagMatches_OrTheItemIsMissing() throws {
        let condition = try #require(EntityTag.parseList(#"W/"a", "b""#))
        #expect(condition.noneMatchWeakly(try Self.tag("c")))
        #expect(condition.noneMatchWeakly(nil))
    }

    @Test func ifNoneMatch_Star_FailsForAnExistingItem_AndSucceedsForAMissingOne() throws {
        #expect(EntityTag.Condition.any.noneMatchWeakly(try Self.tag("a")) == false)
        #expect(EntityTag.Condition.any.noneMatchWeakly(nil))
    }

    // MARK: - Parsing

    @Test func parseList_ReadsStrongAndWeakTags_WithOptionalWhitespaceAroundCommas() throws {
        let condition = EntityTag.parseList(" \t\"a\" ,W/\"b\",\t\"\"  ,  W/\"d-1\" ")
        #expect(condition == .tags([
            try Self.tag("a"), try Self.tag("b", weak: true), try Self.tag(""), try Self.tag("d-1", weak: true),
        ]))
    }

    @Test func parseList_KeepsACommaInsideQuotes_AsPartOfTheOpaqueValue() throws {
        #expect(EntityTag.parseList(#""a,b", "c""#) == .tags([try Self.tag("a,b"), try Self.tag("c")]))
    }

    @Test func parseList_IgnoresEmptyListElements() throws {
        #expect(EntityTag.parseList(#", "a",, "b","#) == .tags([try Self.tag("a"), try Self.tag("b")]))
    }

    @Test func parseList_ReadsStar_WhenItIsTheWholeValue() {
        #expect(EntityTag.parseList("*") == .any)
        #expect(EntityTag.parseList("  *\t") == .any)
    }

    @Test func parseList_AcceptsObsText_InTheOpaqueValue() throws {
        #expect(EntityTag.parseList("\"caf\u{E9}\"") == .tags([try Self.tag("caf\u{E9}")]))
    }

    @Test(arguments: [
        "", "   ", ",", " , ,",  // no element
        "abc", "W/abc", "\"abc", "W/\"abc", "abc\"", "\"a\"b\"",  // unquoted or unterminated
        "w/\"a\"", "W/ \"a\"", "W \"a\"", "/\"a\"",  // weak prefix malformed (it is case-sensitive)
        "\"a\" \"b\"", "\"a\";\"b\"", "\"a\"x",  // no comma between elements
        "*, \"a\"", "\"a\", *", "**", "W/*",  // star not alone
        "\"a b\"", "\"a\tb\"", "\"a\u{7F}\"", "\"a\nb\"",  // characters outside etagc
    ])
    func parseList_IsNil_WhenTheFieldIsMalformed(field: String) {
        #expect(EntityTag.parseList(field) == nil)
    }

    @Test(arguments: ["a b", "a\"b", "x\u{7F}", "\n"])
    func initOpaque_IsNil_WhenAValueCharacterIsNotAllowed(opaque: String) {
        #expect(EntityTag(opaque: opaque) == nil)
    }

    // MARK: - Header

    @Test func header_QuotesTheOpaqueValue_AndPrefixesW_WhenWeak() throws {
        #expect(try Self.tag("abc").header == #""abc""#)
        #expect(try Self.tag("abc", weak: true).header == #"W/"abc""#)
    }

    @Test func header_ParsesBackToTheSameTag() throws {
        for tag in [try Self.tag("v1.2"), try Self.tag("", weak: true), EntityTag(of: Array("x".utf8))] {
            #expect(EntityTag.parseList(tag.header) == .tags([tag]))
        }
    }

    // MARK: - FNV-1a 64

    @Test(arguments: [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")])
    func initOfBytes_IsAStrongTagOfSixteenHexDigits_FromFNV1a64(input: String, expected: String) {
        let tag = EntityTag(of: Array(input.utf8))
        #expect(tag.opaque == expected)
        #expect(tag.isWeak == false)
        #expect(tag.header == "\"\(expected)\"")
    }

    @Test func initOfBytes_IsTheSame_ForTheSameBytes() {
        let bytes = Array(#"{"id":1,"name":"Widget"}"#.utf8)
        #expect(EntityTag(of: bytes) == EntityTag(of: Array(bytes)))
    }

    @Test func initOfBytes_Differs_WhenTheBytesDiffer() {
        let tags = [#"{"id":1}"#, #"{"id":2}"#, #"{"id":1} "#, "", "\0"].map { EntityTag(of: Array($0.utf8)) }
        #expect(Set(tags.map(\.opaque)).count == tags.count)
    }

    @Test func initOfBytes_PadsWithLeadingZeros_ToSixteenDigits() {
        // About one hash in 16 is below 2^60, so 2,000 inputs include many that need padding.
        let malformed = (0..<2_000).map { EntityTag(of: Array(String($0).utf8)).opaque }.filter { opaque in
            opaque.count != 16 || !opaque.allSatisfy { "0123456789abcdef".contains($0) }
        }
        #expect(malformed.isEmpty)
    }
}
