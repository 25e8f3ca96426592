import ContractModel

extension JSONValue {
    /// The string, if this is one.
    var text: String? { if case .string(let text) = self { text } else { nil } }

    /// A scenario's `name`.
    var name: String? { if case .object(let fields) = self { fields["name"]?.text } else { nil } }
}
