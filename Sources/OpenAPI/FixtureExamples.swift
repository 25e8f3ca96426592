#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel

/// The fixture files of a contract set as OpenAPI examples (`components/examples`), one per file, each
/// marked with `x-mock-fixture` so that the import writes it back where it was.
struct FixtureExamples {
    /// Example key by fixture path (relative to the fixtures folder).
    private(set) var keys: [String: String] = [:]
    private(set) var components: [String: JSONValue] = [:]
    /// Fixtures that template scenarios fill in: kept as their text, never re-serialized.
    private let templates: Set<String>
    private let root: String

    init(contracts: ContractSet) {
        root = contracts.fixturesDirectory
        var templates: Set<String> = []
        var files: [String] = []
        for endpoint in contracts.endpoints {
            for scenario in endpoint.scenarios {
                let reached = Self.files(of: scenario, endpoint: endpoint, root: root)
                if scenario.isTemplate { templates.formUnion(reached) }
                files += reached
            }
        }
        files += contracts.contracts.flatMap(\.resources).compactMap(\.seedFile)
        self.templates = templates
        for file in files where keys[file] == nil { add(file) }
    }

    /// Every fixture file a scenario can serve: its body (each file a `{placeholder}` path reaches in its
    /// folder) and its fallback.
    static func files(of scenario: Scenario, endpoint: ContractEndpoint, root: String) -> [String] {
        [scenario.body, scenario.fallback].compactMap { $0 }.flatMap { path in
            FixturePath.placeholders(in: path).isEmpty
                ? [path] : FixtureChecker.reachableFiles(path, of: endpoint, root: root) ?? []
        }
    }

    /// A reference to the example of `file`, or `nil` when the file was not read.
    func reference(to file: String) -> JSONValue? {
        keys[file].map { .object(["$ref": .string("#/components/examples/" + $0)]) }
    }

    /// The example's value: the JSON a `.json` file holds, else the file's text.
    func value(of file: String) -> JSONValue? {
        keys[file].flatMap { components[$0]?["value"] }
    }

    /// Whether `file` is kept as JSON (not text or Base64).
    func isJSON(_ file: String) -> Bool {
        keys[file].flatMap { components[$0]?[MockExtension.fixtureKey]?["format"]?.stringValue } == "json"
    }

    private mutating func add(_ file: String) {
        guard let bytes = FileManager.default.contents(atPath: root + "/" + file) else { return }
        let isTemplate = templates.contains(file)
        var value: JSONValue
        var format = "json"
        if !isTemplate, file.hasSuffix(".json"), let json = try? JSONValue.parse(bytes) {
            value = json
        } else if let text = UTF8Text.decoded(bytes) {
            value = .string(text)
            format = "text"
        } else {
            value = .string(Data(bytes).base64EncodedString())
            format = "base64"
        }
        var marker: [String: JSONValue] = ["path": .string(file), "format": .string(format)]
        if isTemplate { marker["template"] = .bool(true) }
        let summary = isTemplate ? "Fixtures/\(file): a template, filled in per request (placeholders {{…}})"
            : "Fixtures/\(file)"
        let key = uniqueKey(for: file)
        keys[file] = key
        components[key] = .object(["summary": .string(summary), "value": value, MockExtension.fixtureKey: .object(marker)])
    }

    /// `products/1.json` → `products.1.json`: component keys allow letters, digits, `.`, `-` and `_` only.
    private func uniqueKey(for file: String) -> String {
        let base = String(file.unicodeScalars.map { scalar -> Character in
            if scalar == "/" { return "." }
            let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "." || scalar == "-" || scalar == "_")
            return allowed ? Character(scalar) : "_"
        })
        var key = base
        var counter = 2
        while components[key] != nil {
            key = base + "-\(counter)"
            counter += 1
        }
        return key
    }
}
