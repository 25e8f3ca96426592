@testable import ContractModel
import Testing

struct UTF8TextTests {
    @Test func decoded_IsTheText_WhenBytesAreUTF8() {
        #expect(UTF8Text.decoded(Array("Jörg ✓ 🎉".utf8)) == "Jörg ✓ 🎉")
        #expect(UTF8Text.decoded([UInt8]()) == "")
    }

    @Test func decoded_IsNil_WhenBytesAreNotUTF8() {
        #expect(UTF8Text.decoded([0x4A, 0xF6, 0x72, 0x67]) == nil, "Latin-1 ö")
        #expect(UTF8Text.decoded([0xE2, 0x9C]) == nil, "a sequence cut short")
        #expect(UTF8Text.decoded([0xC0, 0xAF]) == nil, "an overlong /")
        #expect(UTF8Text.decoded([0xED, 0xA0, 0x80]) == nil, "a surrogate")
    }

    @Test func decoded_KeepsAReplacementCharacter_ThatWasSent() {
        #expect(UTF8Text.decoded([0x61, 0xEF, 0xBF, 0xBD]) == "a\u{FFFD}")
    }
}
