import ContractModel

/// The one place the import reads YAML.
enum YAMLInput {
    static func parse(file: String, bytes: [UInt8]) throws(OpenAPIImportError) -> JSONValue {
        throw OpenAPIImportError(lines: ["\(file): YAML input is not available in this build yet; convert the document "
            + "to JSON (for example with `python3 -c 'import json,sys,yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'`)"])
    }
}
