/// A json-server style listing of a resource's items: equality filters, sorting and paging, read from a
/// request's query (`?productId=3&_sort=-price&_page=2&_limit=10`).
///
/// ```swift
/// let query = try ResourceQuery.parse(request.queryItems, fields: ["id": .init(kind: .integer)])
/// let (page, total) = query.apply(to: items)  // total goes in X-Total-Count
/// ```
package struct ResourceQuery: Sendable, Equatable {
    /// `?field=value` equality filters, in request order. Filters on different fields must all hold; the
    /// values of a repeated field are alternatives.
    package var filters: [(field: String, value: String)]
    /// Sort fields, most significant first.
    package var sort: [(field: String, descending: Bool)]
    /// The 1-based page, or `nil` for the first.
    package var page: Int?
    /// Items per page, or `nil`: everything when ``page`` is `nil` too, ``defaultLimit`` otherwise.
    package var limit: Int?

    /// The page size when `_page` is given without `_limit`.
    package static let defaultLimit = 10
    /// The `_`-parameters ``parse(_:fields:)`` understands.
    package static let supportedParameters = ["_sort", "_order", "_page", "_limit", "_per_page"]

    package init(
        filters: [(field: String, value: String)] = [],
        sort: [(field: String, descending: Bool)] = [],
        page: Int? = nil,
        limit: Int? = nil
    ) {
        self.filters = filters
        self.sort = sort
        self.page = page
        self.limit = limit
    }

    /// Why a query was refused; the message is meant for the client (a 400 body).
    package struct Problem: Error, Equatable, CustomStringConvertible {
        package let message: String
        package init(_ message: String) { self.message = message }
        package var description: String { message }
    }

    package static func == (lhs: ResourceQuery, rhs: ResourceQuery) -> Bool {
        lhs.page == rhs.page && lhs.limit == rhs.limit
            && lhs.filters.elementsEqual(rhs.filters) { $0.field == $1.field && $0.value == $1.value }
            && lhs.sort.elementsEqual(rhs.sort) { $0.field == $1.field && $0.descending == $1.descending }
    }

    /// Applies the query to a resource's items: keeps the items every filter accepts, sorts them stably
    /// (``JSONValue`` order: missing or `null` first, then booleans, numbers numerically, strings by
    /// Unicode scalar, then arrays and objects; descending reverses it), then cuts the page.
    ///
    /// A filter compares its text with the item's field by the field's JSON type: numbers numerically
    /// (`03` matches `3`), booleans as `true`/`false`, strings scalar by scalar; an item whose field is
    /// missing or `null`, or that is not an object, matches no filter.
    /// - Parameter items: The resource's items, in storage order.
    /// - Returns: The page, and the number of items that passed the filters (for `X-Total-Count`).
    package func apply(to items: [JSONValue]) -> (page: [JSONValue], total: Int) {
        let (indices, total) = positions(in: items)
        return (indices.map { items[$0] }, total)
    }

    /// ``apply(to:)`` as positions in `items`: which items the page holds, in its order, and how many matched.
    package func positions(in items: [JSONValue]) -> (page: [Int], total: Int) {
        var kept = Array(items.indices)
        if !filters.isEmpty {
            // Each field once with all its values: a repeated field's values are alternatives.
            var groups: [(field: String, values: [String])] = []
            for filter in filters {
                if let index = groups.firstIndex(where: { $0.field == filter.field }) {
                    groups[index].values.append(filter.value)
                } else {
                    groups.append((field: filter.field, values: [filter.value]))
                }
            }
            kept = kept.filter { Self.matches(items[$0], groups) }
        }
        if !sort.isEmpty {
            let keyed = kept.map { position in (keys: sort.map { Self.member($0.field, of: items[position]) }, position: position) }
            kept = keyed.sorted { left, right in
                for (index, field) in sort.enumerated() {
                    let order = Self.compare(left.keys[index], right.keys[index])
                    if order != 0 { return field.descending ? order > 0 : order < 0 }
                }
                return left.position < right.position  // stable: ties keep storage order
            }.map(\.position)
        }
        let total = kept.count
        guard let size = limit ?? (page == nil ? nil : Self.defaultLimit) else { return (kept, total) }
        let (offset, overflow) = (max(page ?? 1, 1) - 1).multipliedReportingOverflow(by: size)
        guard size > 0, !overflow, offset < total else { return ([], total) }
        return (Array(kept[offset..<offset + min(size, total - offset)]), total)
    }

    // MARK: - Filtering

    private static func matches(_ item: JSONValue, _ groups: [(field: String, values: [String])]) -> Bool {
        guard case .object(let members) = item else { return false }
        return groups.allSatisfy { group in
            guard let value = members[group.field] else { return false }
            return group.values.contains { Self.value(value, equals: $0) }
        }
    }

    private static func value(_ value: JSONValue, equals text: String) -> Bool {
        switch value {
        case .null: false
        case .bool(let flag): text == (flag ? "true" : "false")
        case .number(let number): Double(text).map { $0.isFinite && $0 == number } ?? false
        case .string(let string): string.unicodeScalars.elementsEqual(text.unicodeScalars)
        case .array, .object: (try? JSONValue.parse(Array(text.utf8))) == value
        }
    }

    // MARK: - Sorting

    private static func member(_ field: String, of item: JSONValue) -> JSONValue? {
        guard case .object(let members) = item else { return nil }
        return members[field]
    }

    /// -1, 0 or 1: the ascending order of two sort keys, a missing member counting as `null`.
    private static func compare(_ left: JSONValue?, _ right: JSONValue?) -> Int {
        let left = left ?? .null, right = right ?? .null
        let ranks = (rank(left), rank(right))
        if ranks.0 != ranks.1 { return ranks.0 < ranks.1 ? -1 : 1 }
        switch (left, right) {
        case (.bool(let a), .bool(let b)): return a == b ? 0 : (b ? -1 : 1)
        case (.number(let a), .number(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.string(let a), .string(let b)): return threeWay(a.unicodeScalars, b.unicodeScalars)
        case (.null, .null): return 0
        default: return threeWay(left.serialized, right.serialized)  // arrays, objects: a stable order
        }
    }

    private static func rank(_ value: JSONValue) -> Int {
        switch value {
        case .null: 0
        case .bool: 1
        case .number: 2
        case .string: 3
        case .array: 4
        case .object: 5
        }
    }

    private static func threeWay<S: Sequence>(_ left: S, _ right: S) -> Int where S.Element: Comparable {
        var rightIterator = right.makeIterator()
        for element in left {
            guard let other = rightIterator.next() else { return 1 }
            if element != other { return element < other ? -1 : 1 }
        }
        return rightIterator.next() == nil ? 0 : -1
    }
}
