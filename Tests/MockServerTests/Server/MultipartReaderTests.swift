@testable import HTTPCore
@testable import MockServer
import Testing

/// Splitting multipart bodies (RFC 2046 §5.1.1) and reading form-data parts (RFC 7578 §4), without a
/// socket. Bodies are written with explicit CRLFs: the delimiter is `CRLF "--" boundary`, and the CRLF
/// before it belongs to the delimiter, not to the part.
struct MultipartReaderTests {
    private func split(_ body: String, boundary: String = "AaB03x") -> [MultipartReader.Part]? {
        MultipartReader.parts(of: Array(body.utf8), boundary: boundary)
    }

    private func text(_ part: MultipartReader.Part) -> String { String(decoding: part.body, as: UTF8.self) }

    /// After RFC 7578 §4's form with a text field and a file.
    private let form = "--AaB03x\r\n"
        + "Content-Disposition: form-data; name=\"field1\"\r\n"
        + "\r\n"
        + "Joe Blow\r\n"
        + "--AaB03x\r\n"
        + "Content-Disposition: form-data; name=\"pics\"; filename=\"file1.txt\"\r\n"
        + "Content-Type: text/plain\r\n"
        + "\r\n"
        + "... contents of file1.txt ...\r\n"
        + "--AaB03x--\r\n"

    // MARK: - Structure

    @Test func parts_AreSplitAtDelimiterLines_WithNamesFileNamesAndContent() throws {
        let parts = try #require(split(form))
        #expect(parts.count == 2)
        #expect(parts.map(\.name) == ["field1", "pics"])
        #expect(parts.map(\.fileName) == [nil, "file1.txt"])
        #expect(parts.map(text) == ["Joe Blow", "... contents of file1.txt ..."])
    }

    /// RFC 2046 §5.1.1's own example: a quoted boundary with a space, a preamble, a part with no header
    /// fields at all, one whose content ends in a line break, and an epilogue.
    @Test func rfc2046Example_IsSplitIntoItsTwoParts_IgnoringPreambleAndEpilogue() throws {
        let body = "This is the preamble.  It is to be ignored, though it\r\n"
            + "is a handy place for composition agents to include an\r\n"
            + "explanatory note to non-MIME conformant readers.\r\n"
            + "\r\n"
            + "--simple boundary\r\n"
            + "\r\n"
            + "This is implicitly typed plain US-ASCII text.\r\n"
            + "It does NOT end with a linebreak.\r\n"
            + "--simple boundary\r\n"
            + "Content-type: text/plain; charset=us-ascii\r\n"
            + "\r\n"
            + "This is explicitly typed plain US-ASCII text.\r\n"
            + "It DOES end with a linebreak.\r\n"
            + "\r\n"
            + "--simple boundary--\r\n"
            + "\r\n"
            + "This is the epilogue.  It is also to be ignored.\r\n"
        let boundary = try #require(BodyValidator.parameter("boundary",
                                                            in: "multipart/mixed; boundary=\"simple boundary\""))
        let parts = try #require(split(body, boundary: boundary))
        #expect(parts.map(text) == [
            "This is implicitly typed plain US-ASCII text.\r\nIt does NOT end with a linebreak.",
            "This is explicitly typed plain US-ASCII text.\r\nIt DOES end with a linebreak.\r\n",
        ])
        #expect(parts.allSatisfy { $0.name == nil && $0.fileName == nil })
    }

    @Test func preambleAndEpilogue_AreNotParts() throws {
        let parts = try #require(split("a preamble\r\n" + form + "an epilogue\r\n"))
        #expect(parts.map(text) == ["Joe Blow", "... contents of file1.txt ..."])
    }

    /// RFC 2046 §5.1.1: the preamble is whatever precedes the first `dash-boundary` at a line start, and
    /// everything after the close delimiter is epilogue.
    @Test(arguments: [
        ("see --AaB03x below\r\n", ""),
        ("", "after the end:\r\n--AaB03x is not a part"),
    ])
    func boundaryMentionedInPreambleOrEpilogue_StartsNoPart(preamble: String, epilogue: String) {
        let parts = split(preamble + form + epilogue)
        #expect(parts?.map(text) == ["Joe Blow", "... contents of file1.txt ..."])
    }

    // MARK: - Boundary parameter

    /// RFC 2046 §5.1.1 and RFC 9110 §5.6.6: the boundary is a token or a quoted-string, the parameter name
    /// is case-insensitive, and whitespace may surround the `;`.
    @Test(arguments: [
        ("multipart/form-data; boundary=AaB03x", "AaB03x"),
        ("multipart/form-data; boundary=\"AaB03x\"", "AaB03x"),
        ("multipart/form-data;boundary=AaB03x", "AaB03x"),
        ("multipart/form-data ; Boundary=AaB03x ; charset=utf-8", "AaB03x"),
        ("multipart/form-data; boundary=\"simple boundary\"", "simple boundary"),
        ("multipart/form-data; boundary=\"a=b:c?d\"", "a=b:c?d"),
    ])
    func boundaryParameter_IsReadWithOrWithoutQuotes(contentType: String, boundary: String) throws {
        #expect(BodyValidator.parameter("boundary", in: contentType) == boundary)
        let body = form.replacingOccurrences(of: "AaB03x", with: boundary)
        #expect(try #require(split(body, boundary: boundary)).map(\.name) == ["field1", "pics"])
    }

    @Test(arguments: ["multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\"\""])
    func boundaryParameter_IsMissing_WhenAbsentOrEmpty(contentType: String) {
        #expect(BodyValidator.parameter("boundary", in: contentType) == nil)
    }

    // MARK: - Line breaks

    @Test func contentEndingInALineBreak_KeepsIt_OnlyTheDelimitersCRLFIsRemoved() throws {
        let body = "--AaB03x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nline\r\n\r\n--AaB03x--\r\n"
        #expect(try #require(split(body)).map(text) == ["line\r\n"])
    }

    @Test func emptyContent_IsAnEmptyPart() throws {
        let body = "--AaB03x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\r\n--AaB03x--"
        let parts = try #require(split(body))
        #expect(parts.count == 1 && parts[0].name == "a" && parts[0].body.isEmpty)
    }

    @Test func closeDelimiter_NeedsNoLineBreakAfterIt() throws {
        #expect(try #require(split(form.replacingOccurrences(of: "--AaB03x--\r\n", with: "--AaB03x--"))).count == 2)
    }

    /// RFC 2046 §5.1.1: delimiter lines end in CRLF; a body whose lines end in bare LF has none.
    @Test func delimiterLines_EndingInBareLF_AreNotDelimiters() {
        #expect(split(form.replacingOccurrences(of: "\r\n", with: "\n")) == nil)
    }

    /// RFC 2046 §5.1.1: `dash-boundary transport-padding CRLF`, and receivers "MUST be able to handle
    /// padding added by message transports" (spaces or tabs before the CRLF).
    @Test func delimiterLines_WithTransportPadding_AreDelimiters() {
        let padded = form.replacingOccurrences(of: "--AaB03x\r\n", with: "--AaB03x \t\r\n")
        #expect(split(padded)?.map(\.name) == ["field1", "pics"])
    }

    // MARK: - Malformed

    @Test func body_WithoutTheCloseDelimiter_IsRejected() {
        #expect(split(form.replacingOccurrences(of: "--AaB03x--\r\n", with: "")) == nil)
        #expect(split(form.replacingOccurrences(of: "--AaB03x--", with: "--AaB03x")) == nil)
        #expect(split("Joe Blow") == nil)
        #expect(split("") == nil)
    }

    /// RFC 2046 §5.1.1: only `CRLF "--" boundary` delimits; the same characters in the middle of a
    /// line are content.
    @Test func boundaryInsideContent_NotAtALineStart_IsContent() {
        let body = form.replacingOccurrences(of: "Joe Blow", with: "Joe --AaB03x Blow")
        #expect(split(body)?.map(text) == ["Joe --AaB03x Blow", "... contents of file1.txt ..."])
    }

    // MARK: - Content-Disposition

    /// RFC 7578 §4.2 requires a name; a part without one is still a part of the body, and belongs to
    /// no field.
    @Test func part_WithoutAName_HasNoName() throws {
        let body = "--AaB03x\r\nContent-Disposition: form-data\r\n\r\nx\r\n"
            + "--AaB03x\r\nContent-Type: text/plain\r\n\r\ny\r\n--AaB03x--\r\n"
        let parts = try #require(split(body))
        #expect(parts.map(\.name) == [nil, nil])
        #expect(parts.map(text) == ["x", "y"])
    }

    @Test func name_IsReadQuotedOrNot_AndCaseOfTheFieldNameDoesNotMatter() throws {
        let body = "--AaB03x\r\ncontent-disposition: form-data; name=plain\r\n\r\nx\r\n"
            + "--AaB03x\r\nCONTENT-DISPOSITION: form-data; filename=\"a.png\"; name=\"quoted\"\r\n\r\ny\r\n"
            + "--AaB03x--\r\n"
        let parts = try #require(split(body))
        #expect(parts.map(\.name) == ["plain", "quoted"])
        #expect(parts.map(\.fileName) == [nil, "a.png"])
    }

    /// RFC 9110 §5.6.4: a quoted-string may hold `;`, which then separates no parameter.
    @Test func quotedName_MayHoldASemicolon() throws {
        let body = "--AaB03x\r\nContent-Disposition: form-data; name=\"a;b\"\r\n\r\nx\r\n--AaB03x--\r\n"
        let parts = try #require(split(body))
        #expect(parts.map(\.name) == ["a;b"])
    }
}
