import ContractModel

/// The one place the import reads YAML: the contract model's reader (``JSONValue/parseYAML(_:)``), its
/// errors given the file, line and column.
enum YAMLInput {
    static func parse(file: String, bytes: [UInt8]) throws(OpenAPIImportError) -> JSONValue {
        do {
            return try JSONValue.parseYAML(bytes)
        } catch {
            throw OpenAPIImportError(lines: ["\(file):\(error.line):\(error.column): not valid YAML: \(error.reason)"])
        }
    }
}
