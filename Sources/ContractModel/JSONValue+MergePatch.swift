/// JSON Merge Patch (RFC 7396): the body of a `PATCH` sent as `application/merge-patch+json`.
extension JSONValue {
    /// The value with `patch` applied by the algorithm of RFC 7396 §2.
    ///
    /// A patch that is not an object replaces the value whole. An object patch starts from the value's
    /// members (from none when the value is not an object), removes each member the patch sets to
    /// `null`, and merges every other member recursively, so nested objects change only where the patch
    /// names them. Arrays are never merged: a patch member holding an array replaces the member.
    ///
    /// ```swift
    /// let item: JSONValue = .object(["name": .string("Widget"), "price": .number(9.5)])
    /// item.merging(patch: .object(["price": .null, "stock": .number(3)]))
    /// // {"name": "Widget", "stock": 3}
    /// ```
    /// - Parameter patch: The merge patch document.
    /// - Returns: The patched value; `self` is unchanged.
    package func merging(patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [String: JSONValue]
        if case .object(let existing) = self {
            members = existing
        } else {
            members = [:]
        }
        for (name, change) in changes {
            if case .null = change {
                members[name] = nil
            } else {
                // A missing member is merged as `null`: not an object, so an object patch starts from {}
                // exactly as §2 starts from an undefined Target[Name].
                members[name] = (members[name] ?? .null).merging(patch: change)
            }
        }
        return .object(members)
    }
}
