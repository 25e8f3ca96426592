import Foundation
@testable import HTTPCore
import Testing

@Suite struct SHA1Tests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// RFC 3174 §7.3's test vectors, and the classic pangram.
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
        (String(repeating: "01234567", count: 80), "dea356a2cddd90c7a7ecedc5ebb563934f460452"),
    ])
    func digest_OfPublishedVectors_IsTheirs(message: String, expected: String) {
        #expect(hex(SHA1.digest(Array(message.utf8))) == expected)
    }

    @Test func digest_OfAMillionAs_IsRFC3174s() {
        #expect(hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// Lengths around the padding's edges (55, 56, 64 bytes of a block), against coreutils' `sha1sum`.
    @Test func digest_AtEveryPaddingEdge_MatchesSha1sum() throws {
        for length in [1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129] {
            let message = (0..<length).map { (index: Int) in UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sha1sum"]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data(message))
            try input.fileHandleForWriting.close()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(String(printed.prefix(40)) == hex(SHA1.digest(message)), "length \(length)")
        }
    }
}

@Suite struct Base64Tests {
    /// RFC 4648 §10.
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
                      ("foobar", "Zm9vYmFy")])
    func encodeAndDecode_RFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func encode_AgreesWithFoundation_ForEveryByte() {
        let bytes = (0..<300).map { (index: Int) in UInt8(truncatingIfNeeded: index &* 7) }
        for count in 0..<20 {
            #expect(Base64.encode(bytes.prefix(count * 13)) == Data(bytes.prefix(count * 13)).base64EncodedString())
        }
        #expect(Base64.decode(Data(bytes).base64EncodedString()) == bytes)
    }

    @Test(arguments: ["Zg=", "Zh==", "Zm9=", "Zm9v!A==", "=Zm9", "Zm=v", "Zg==Zg==", "Z===", "====", " Zm9v"])
    func decode_OfWhatIsNotPaddedBase64_IsNil(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
