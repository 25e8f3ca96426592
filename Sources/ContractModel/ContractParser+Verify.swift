extension ContractParser {
    // MARK: - verify

    /// An endpoint's or scenario's `verify` (``VerifyExample``): string maps (a number or `true` is taken as the
    /// text it is written with) and any JSON body; a path parameter the path does not have is a problem.
    /// - Parameter parameters: The endpoint path's parameter names.
    mutating func parseVerify(_ value: JSONValue?, parameters: [String], at path: String) -> VerifyExample? {
        guard let value else { return nil }
        guard let fields = object(value, at: path, keys: ContractSchema.keys(of: .verify)) else { return nil }
        let example = VerifyExample(pathParams: scalarMap(fields["pathParams"], at: path + ".pathParams"),
                                    query: scalarMap(fields["query"], at: path + ".query"),
                                    headers: scalarMap(fields["headers"], at: path + ".headers"),
                                    body: fields["body"])
        for name in example.pathParams.keys.sorted() where !parameters.contains(name) {
            report(path + ".pathParams." + name, "the path has no parameter {\(name)}; it has: "
                + (parameters.isEmpty ? "none" : parameters.map { "{\($0)}" }.joined(separator: ", ")))
        }
        return example
    }

    /// A scenario's `verifyStatus`: `class` (the default) or `exact`.
    mutating func parseVerifyStatus(_ value: JSONValue?, at path: String) -> VerifyStatus {
        guard let text = optionalString(value, at: path) else { return .class }
        guard let status = VerifyStatus(rawValue: text) else {
            report(path, "\"\(text)\" is not one of " + VerifyStatus.allCases.map(\.rawValue).joined(separator: ", "))
            return .class
        }
        return status
    }

    /// Names to scalar values, each as its text: `{"id": 1}` gives `id` = `1`.
    private mutating func scalarMap(_ value: JSONValue?, at path: String) -> [String: String] {
        guard let value else { return [:] }
        guard case .object(let fields) = value else {
            report(path, "expected an object of values, found \(value.typeName)")
            return [:]
        }
        var map: [String: String] = [:]
        for (name, item) in fields {
            if let text = Matcher.text(of: item) { map[name] = text } else {
                report(path + "." + name, "expected a string, number or true/false, found \(item.typeName)")
            }
        }
        return map
    }
}
