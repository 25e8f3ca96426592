import ContractModel
import Testing

struct FieldTypeTests {
    @Test(arguments: [
        ("integer", "12", true), ("integer", "1.5", false), ("integer", "x", false),
        // Any integer, however large (JSON Schema's, which an OpenAPI tool sends); no fraction, exponent or space.
        ("integer", "36893488147419103231", true), ("integer", "-36893488147419103231", true), ("integer", "+7", true),
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
    }

    @Test func pathTemplate_MatchesSegments() throws {
        let template = try #require(PathTemplate("/api/products/{id}"))
        #expect(template.match(["api", "products", "7"]) == ["id": "7"])
        #expect(template.match(["api", "products"]) == nil)
        #expect(template.match(["api", "products", ""]) == nil)
        #expect(PathTemplate("/a/x{id}") == nil)
    }
}
