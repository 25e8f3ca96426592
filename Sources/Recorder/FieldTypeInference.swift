import ContractModel

/// The declared type of a query parameter or body field from the values recorded for it: the
/// narrowest type that accepts every value, optional (`?`) when some request lacked it or sent `null`.
enum FieldTypeInference {
    /// For textual values (query parameters, form fields); `nil` in `values` is a request without it.
    static func text(_ values: [String?]) -> FieldType {
        let present = values.compactMap { $0 }
        let optional = present.count < values.count
        let kind: FieldType.Kind = if present.isEmpty {
            .string
        } else if present.allSatisfy(FieldType(kind: .integer).accepts(text:)) {
            .integer
        } else if present.allSatisfy(FieldType(kind: .number).accepts(text:)) {
            .number
        } else if present.allSatisfy(FieldType(kind: .boolean).accepts(text:)) {
            .boolean
        } else {
            .string
        }
        return FieldType(kind: kind, isOptional: optional)
    }

    /// For members of JSON bodies; `nil` in `values` is a body without the member. Objects, arrays and
    /// mixed types are `json`, which accepts any value.
    static func json(_ values: [JSONValue?]) -> FieldType {
        let present = values.compactMap { $0 }.filter { $0 != .null }
        let optional = present.count < values.count
        let kinds = Set(present.map(kind(of:)))
        let kind: FieldType.Kind = switch kinds {
        case [.integer]: .integer
        case [.integer, .number], [.number]: .number
        case [.string]: .string
        case [.boolean]: .boolean
        default: .json
        }
        return FieldType(kind: kind, isOptional: optional)
    }

    private static func kind(of value: JSONValue) -> FieldType.Kind {
        switch value {
        case .number(let number): FieldType(kind: .integer).accepts(json: .number(number)) ? .integer : .number
        case .string: .string
        case .bool: .boolean
        default: .json
        }
    }
}
