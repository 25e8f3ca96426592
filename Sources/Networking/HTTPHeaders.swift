#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The header fields of a response, looked up by name without regard to case (RFC 9110 §5.1).
///
/// ```swift
/// let response = await client.response(for: ProductAPI.list(page: 1, itemsPerPage: 20))
/// let total = response.headers["x-total-count"].flatMap(Int.init)
/// let etag = response.headers["ETag"]
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One field: its name as received and its value.
    public struct Field: Sendable, Hashable {
        /// The name as the response spelled it (URLSession may re-case well-known names).
        public let name: String
        /// The value; repeated fields arrive joined with `", "`.
        public let value: String
    }

    /// Fields keyed by their lower-cased name.
    private var fields: [String: Field] = [:]

    /// No fields.
    public init() {}

    /// Fields from a dictionary; of two names that differ only in case, one is kept.
    public init(_ fields: [String: String]) {
        for (name, value) in fields { self.fields[name.lowercased()] = Field(name: name, value: value) }
    }

    /// Fields from a dictionary literal: `["Retry-After": "5"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { fields[name.lowercased()] = Field(name: name, value: value) }
    }

    /// The fields of a response.
    public init(_ response: HTTPURLResponse) {
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            fields[name.lowercased()] = Field(name: name, value: value as? String ?? String(describing: value))
        }
    }

    /// The value of the field `name`, whatever its case, or `nil`.
    public subscript(name: String) -> String? {
        fields[name.lowercased()]?.value
    }

    /// How many fields there are.
    public var count: Int { fields.count }

    /// Whether there are none, as for a call that got no response.
    public var isEmpty: Bool { fields.isEmpty }

    /// The fields, sorted by lower-cased name.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.sorted { $0.key < $1.key }.map(\.value).makeIterator()
    }

    /// `name: value` lines, sorted by name.
    public var description: String {
        map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
