import ContractModel
import Testing

/// The value of a YAML text.
func yaml(_ text: String) throws(YAMLReadError) -> JSONValue {
    try JSONValue.parseYAML(Array(text.utf8))
}

/// The value of a JSON text, to say what a YAML text must read as.
func json(_ text: String) throws(JSONReadError) -> JSONValue {
    try JSONValue.parse(Array(text.utf8))
}

/// Expects `text` to read as the same value as the JSON text `expected`.
func expectYAML(
    _ text: String,
    equalsJSON expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        #expect(try yaml(text) == json(expected), sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
    }
}

/// Expects reading `bytes` to fail at `line` and `column` with a reason that contains `reason`.
func expectYAMLError(
    _ bytes: [UInt8],
    line: Int,
    column: Int,
    _ reason: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let value = try JSONValue.parseYAML(bytes)
        Issue.record("read as \(String(decoding: value.serialized, as: UTF8.self))", sourceLocation: sourceLocation)
    } catch {
        #expect(error.line == line && error.column == column, "\(error)", sourceLocation: sourceLocation)
        #expect(error.reason.contains(reason), "\(error)", sourceLocation: sourceLocation)
    }
}

/// Expects reading `text` to fail at `line` and `column` with a reason that contains `reason`.
func expectYAMLError(
    _ text: String,
    line: Int,
    column: Int,
    _ reason: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectYAMLError(Array(text.utf8), line: line, column: column, reason, sourceLocation: sourceLocation)
}
