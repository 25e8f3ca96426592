import ContractModel
@testable import OpenAPI
import Testing

/// Examples made from schemas: deterministic, within the schema's bounds, cycles cut.
@Suite(.timeLimit(.minutes(2)))
struct SchemaExampleTests {
    /// The example for `schema` in a document whose `components/schemas` are `schemas`.
    private func example(_ schema: String, schemas: String = "{}") throws -> JSONValue {
        let text = #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "#
            + #""components": {"schemas": \#(schemas)}, "x-schema": \#(schema)}"#
        let document = try OpenAPIDocument(file: "t.json", bytes: Array(text.utf8))
        return try SchemaExample(document: document).value(for: try #require(document.value(at: "/x-schema")), at: "/x-schema")
    }

    private func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func example_FollowsFormats_Enums_AndGivenExamples() throws {
        let schema = #"""
            {"type": "object", "properties": {
              "at": {"type": "string", "format": "date-time"}, "id": {"type": "string", "format": "uuid"},
              "mail": {"type": "string", "format": "email"}, "kind": {"type": "string", "enum": ["b", "a"]},
              "named": {"type": "string", "example": "Rex"}, "flag": {"type": "boolean"},
              "late": {"type": ["string", "null"], "format": "date"}, "any": {}}}
            """#
        #expect(try example(schema) == json(#"""
            {"at": "2024-01-01T00:00:00Z", "id": "00000000-0000-4000-8000-000000000000", "mail": "user@example.com",
             "kind": "b", "named": "Rex", "flag": true, "late": "2024-01-01", "any": {}}
            """#))
    }

    @Test func example_RespectsBounds_OfNumbersStringsAndArrays() throws {
        let schema = #"""
            {"type": "object", "properties": {
              "low": {"type": "integer", "minimum": 10}, "high": {"type": "integer", "maximum": -5},
              "open": {"type": "number", "exclusiveMinimum": 2}, "old": {"type": "integer", "minimum": 3, "exclusiveMinimum": true},
              "step": {"type": "integer", "minimum": 7, "multipleOf": 5},
              "short": {"type": "string", "maxLength": 3}, "long": {"type": "string", "minLength": 9},
              "few": {"type": "array", "items": {"type": "integer"}, "minItems": 2}, "none": {"type": "array", "maxItems": 0}}}
            """#
        #expect(try example(schema) == json(#"""
            {"low": 10, "high": -5, "open": 2.5, "old": 4, "step": 10, "short": "str", "long": "stringxxx",
             "few": [1, 1], "none": []}
            """#))
    }

    @Test func example_MergesAllOf_TakesTheFirstOneOf_WithItsDiscriminator() throws {
        let schemas = #"""
            {"Base": {"type": "object", "properties": {"id": {"type": "integer"}, "kind": {"type": "string"}}},
             "Cat": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"properties": {"meows": {"type": "boolean"}}}]},
             "Dog": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"properties": {"barks": {"type": "boolean"}}}]},
             "Alias": {"$ref": "#/components/schemas/Cat"}}
            """#
        let pet = #"""
            {"oneOf": [{"$ref": "#/components/schemas/Alias"}, {"$ref": "#/components/schemas/Dog"}],
             "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/components/schemas/Alias"}}}
            """#
        #expect(try example(pet, schemas: schemas) == json(#"{"id": 1, "kind": "cat", "meows": true}"#))
        let nullable = #"{"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 4}]}"#
        #expect(try example(nullable) == .number(4))
    }

    @Test func example_CutsCycles_LeavingOptionalMembersOut_AndArraysEmpty() throws {
        let schemas = #"""
            {"Node": {"type": "object", "required": ["name", "children", "owner"], "properties": {
               "name": {"type": "string"}, "parent": {"$ref": "#/components/schemas/Node"},
               "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
               "owner": {"$ref": "#/components/schemas/Node"}}}}
            """#
        #expect(try example(##"{"$ref": "#/components/schemas/Node"}"##, schemas: schemas)
                == json(#"{"name": "string", "children": [], "owner": null}"#))
    }
}
