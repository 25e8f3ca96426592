/// A collection a contract declares, served with REST semantics from a store that remembers, per session:
/// `GET` lists and reads, `POST` creates, `PUT` replaces, `PATCH` merges (RFC 7396), `DELETE` removes.
package struct Resource: Sendable, Equatable {
    /// Unique across all contracts; the operations' endpoint ids are `<id>.list`, `<id>.read`, ...
    package let id: String
    /// The collection's path, such as `/api/cart/items`; an item's is `<path>/{id}`.
    package let path: PathTemplate
    /// The field that holds an item's id.
    package let idField: String
    package let idType: IDType
    /// Every other field, with its type (`?` for optional).
    package let fields: [String: FieldType]
    /// The fixture holding the items every session starts with (a JSON array), if any; the loader reads
    /// and checks it (``ContractSet/seeds``).
    package let seedFile: String?
    package let shape: Shape
    /// At most this many items per session.
    package let maximumItems: Int
    /// The resource's `description`, for people.
    package var description: String? = nil

    /// The scenario every operation starts with: the store answers.
    package static let storeScenario = "store"

    package enum IDType: String, Sendable, CaseIterable {
        /// Integers assigned in sequence: one more than the largest so far.
        case integer
        /// Random UUID strings, lower case.
        case uuid
    }

    /// How a response carries its value.
    package enum Shape: String, Sendable, CaseIterable {
        /// The item or the list itself.
        case bare
        /// `{"status": <code>, "responseMsg": <reason>, "data": <value>}`, as the questions domain answers.
        case envelope
    }

    /// The fields a filter or a sort may name: the declared ones and the id.
    package var queryableFields: [String: FieldType] {
        var all = fields
        all[idField] = FieldType(kind: idType == .integer ? .integer : .string)
        return all
    }
}

/// What a resource's endpoint does.
package enum ResourceOperation: String, Sendable, CaseIterable {
    case list, create, read, replace, update, delete

    /// The operations' names, for messages: `list, create, ...`.
    package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The method and whether the path is the item's (`<path>/{id}`) rather than the collection's.
    package var route: (method: String, isItem: Bool) {
        switch self {
        case .list: ("GET", false)
        case .create: ("POST", false)
        case .read: ("GET", true)
        case .replace: ("PUT", true)
        case .update: ("PATCH", true)
        case .delete: ("DELETE", true)
        }
    }
}
