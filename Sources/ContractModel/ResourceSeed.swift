// Only Foundation's essentials (FileManager): they keep the mock server small and quick to start.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A resource's seed fixture, read and checked at load: a JSON array of items that each fit the
/// resource (``ResourceItemCheck``), with unique ids.
package enum ResourceSeed {
    package struct Problem: Error {
        package let message: String

        package init(message: String) { self.message = message }
    }

    static func read(_ file: String, of resource: Resource, fixturesDirectory: String) -> Result<[JSONValue], Problem> {
        guard let bytes = FileManager.default.contents(atPath: fixturesDirectory + "/" + file) else {
            return .failure(Problem(message: "seed \"\(file)\" not found in \(fixturesDirectory)"))
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            return .failure(Problem(message: "seed \"\(file)\" is not valid JSON (\(error))"))
        }
        return items(document, of: resource, named: "seed \"\(file)\"")
    }

    /// `document`'s items, if it is an array of items that fit `resource`, with unique ids.
    /// - Parameter name: What `document` is, to begin messages with: `seed "cart/items.json"`.
    package static func items(_ document: JSONValue, of resource: Resource, named name: String) -> Result<[JSONValue], Problem> {
        guard case .array(let items) = document else {
            return .failure(Problem(message: "\(name) must be a JSON array of items, not \(document.typeName)"))
        }
        var ids: Set<JSONValue> = []
        var problems: [String] = []
        for (index, item) in items.enumerated() {
            let found = ResourceItemCheck.problems(of: item, in: resource, requireID: true)
            problems += found.map { "item \(index): \($0)" }
            if found.isEmpty, case .object(let fields) = item, let id = fields[resource.idField], !ids.insert(id).inserted {
                problems.append("item \(index): duplicate \(resource.idField) \(String(decoding: id.serialized, as: UTF8.self))")
            }
        }
        guard problems.isEmpty else {
            return .failure(Problem(message: "\(name): " + problems.joined(separator: "; ")))
        }
        return .success(items)
    }
}

/// Whether a JSON value is an item of a resource: an object with every required field, each field of its
/// type, no field the resource does not declare, and (when asked) an id of the id type.
package enum ResourceItemCheck {
    /// Every problem, each naming its field.
    package static func problems(of item: JSONValue, in resource: Resource, requireID: Bool) -> [String] {
        guard case .object(let fields) = item else { return ["an item is a JSON object, not \(item.typeName)"] }
        var problems: [String] = []
        if let id = fields[resource.idField] {
            if !isID(id, of: resource.idType) {
                problems.append("\(resource.idField) must be \(resource.idType == .integer ? "an integer" : "a UUID string")")
            }
        } else if requireID {
            problems.append("\(resource.idField) is missing")
        }
        for (name, type) in resource.fields.sorted(by: { $0.key < $1.key }) {
            guard let value = fields[name] else {
                if !type.isOptional { problems.append("\(name) is missing") }
                continue
            }
            if !type.accepts(json: value) { problems.append("\(name) must be \(type.kind.rawValue), not \(value.typeName)") }
        }
        for name in fields.keys.sorted() where name != resource.idField && resource.fields[name] == nil {
            problems.append("\(name) is not a field of \(resource.id) (fields: "
                + resource.fields.keys.sorted().joined(separator: ", ") + ")")
        }
        return problems
    }

    static func isID(_ value: JSONValue, of type: Resource.IDType) -> Bool {
        switch (type, value) {
        case (.integer, .number(let number)): number.rounded() == number && abs(number) < 1e15
        case (.uuid, .string(let text)): UUID(uuidString: text) != nil
        default: false
        }
    }
}
