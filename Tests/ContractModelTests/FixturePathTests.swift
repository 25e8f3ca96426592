@testable import ContractModel
import Testing

/// How a fixture path template takes request values, without a server: a value that could name a file
/// outside the fixtures folder resolves to nothing.
struct FixturePathTests {
    @Test func resolve_IsNil_WhenAValueCouldLeaveTheFolder() throws {
        #expect(FixturePath.resolve("products/{id}.json", parameters: ["id": "../../etc/passwd"]) == nil)
        #expect(FixturePath.resolve("products/{id}.json", parameters: ["id": "..\\x"]) == nil)
        #expect(FixturePath.resolve("products/{id}.json", parameters: ["id": "a\u{0}"]) == nil)
        #expect(FixturePath.resolve("products/{id}.json", parameters: ["id": "12"]) == "products/12.json")
    }

    /// The byte-level check against the rule as first written (ASCII letters, digits, `-`, `_` and `.`; no `..`; no
    /// `.` at either end; 128 bytes at most), on every short string of a small alphabet and on random ones.
    @Test func isSafe_AgreesWithTheRuleAsFirstWritten() {
        func reference(_ value: String) -> Bool {
            guard !value.isEmpty, value.utf8.count <= 128, value.first != ".", value.last != "." else { return false }
            return value.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || scalar == "-" || scalar == "_" || scalar == ".")
            } && !value.contains("..")
        }
        let alphabet = ["a", "Z", "0", ".", "-", "_", "/", " ", "é", "%", "\u{0}"]
        var values = [""]
        for _ in 0..<3 { values += values.flatMap { prefix in alphabet.map { prefix + $0 } } }
        values += (0..<500).map { _ in String((0..<Int.random(in: 1...140)).map { _ in "ab.9-_".randomElement()! }) }
        for value in values {
            #expect(FixturePath.isSafe(value) == reference(value), "\(value.debugDescription)")
        }
    }
}
