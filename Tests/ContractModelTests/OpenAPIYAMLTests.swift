import ContractModel
import Foundation
import Testing

/// Real OpenAPI documents (OpenAPIExamples/README.md says where from) read as PyYAML reads them.
struct OpenAPIYAMLTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("OpenAPIExamples")

    @Test(arguments: ["petstore-expanded", "api-with-examples", "webhook-example"])
    func openAPIExample_ReadsAsPyYAMLReadsIt(name: String) throws {
        // GIVEN an example of the specification, and the JSON of what PyYAML reads from it
        let yaml = try Data(contentsOf: Self.folder.appendingPathComponent(name + ".yaml"))
        let expected = try JSONValue.parse(Data(contentsOf: Self.folder.appendingPathComponent(name + ".json")))

        // THEN the YAML reader reads the same value
        #expect(try JSONValue.parseYAML(yaml) == expected)
    }
}
