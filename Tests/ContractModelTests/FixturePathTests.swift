import ContractModel
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
}
