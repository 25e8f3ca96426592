import ContractModel
import Testing

struct FieldTypeTests {
    @Test(arguments: [
        ("integer", "12", true), ("integer", "1.5", false), ("integer", "x", false),
        // A 64-bit integer, what an app decodes into Int; no fraction, exponent or space.
        ("integer", "36893488147419103231", false), ("integer", "-36893488147419103231", false), ("integer", "+7", true),
        ("integer", "9223372036854775807", true), ("integer", "9223372036854775808", false),
        ("integer", "-9223372036854775808", true), ("integer", "-9223372036854775809", false),
        ("integer", "99999999999999999999", false), ("integer", "+9223372036854775807", true), ("integer", "-0", true),
        ("integer", "2.0", false), ("integer", "1e3", false), ("integer", "-", false), ("integer", " 1", false),
        ("number", "1.5", true), ("number", "nan", false), ("boolean", "true", true), ("boolean", "1", false),
        ("string", "", true), ("json", #"{"a":1}"#, true), ("json", "{", false),
    ])
    func text_IsCheckedAgainstType(declaration: String, text: String, accepted: Bool) throws {
        let type = try #require(FieldType(declaration: declaration))
        #expect(type.accepts(text: text) == accepted)
    }

    @Test func optionalMarker_AndUnknownKinds() throws {
        #expect(FieldType(declaration: "integer?")?.isOptional == true)
        #expect(FieldType(declaration: "int") == nil)
        #expect(try #require(FieldType(declaration: "integer?")).accepts(json: .null))
        #expect(try #require(FieldType(declaration: "integer")).accepts(json: .number(2.5)) == false)
        #expect(try #require(FieldType(declaration: "integer")).accepts(json: .number(1e20)) == false, "beyond 64 bits")
        #expect(try #require(FieldType(declaration: "integer")).accepts(json: .number(-0x1p63)), "Int64.min")
    }

    @Test func pathTemplate_MatchesSegments() throws {
        let template = try #require(PathTemplate("/api/products/{id}"))
        #expect(template.match(["api", "products", "7"]) == ["id": "7"])
        #expect(template.match(["api", "products"]) == nil)
        #expect(template.match(["api", "products", ""]) == nil)
        #expect(PathTemplate("/a/x{id}") == nil)
    }
}
