extension ResourceQuery {
    /// Reads a listing query from a request's percent-decoded query items.
    ///
    /// - A parameter named after a field is an equality filter; its value must fit the field's type.
    /// - `_sort=a,-b` sorts by `a` then by `b` descending (json-server v1). The older
    ///   `_sort=a,b&_order=asc,desc` gives one direction for every field or one per field, and cannot be
    ///   mixed with `-`. Repeated `_sort` and `_order` parameters are joined.
    /// - `_page` (1-based) and `_limit` or its synonym `_per_page` are positive integers, each given once.
    ///
    /// ```swift
    /// let fields: [String: FieldType] = ["id": .init(kind: .integer), "name": .init(kind: .string)]
    /// try ResourceQuery.parse([("name", "bolt"), ("_sort", "-id")], fields: fields)
    /// ```
    /// - Parameters:
    ///   - items: The query items, percent-decoded, in request order.
    ///   - fields: The resource's declared fields with their types, the id field included.
    /// - Returns: The query.
    /// - Throws: ``Problem`` naming the known fields for an unknown filter or sort field, the supported
    ///   parameters for an unknown `_` parameter, or what is wrong with a value.
    package static func parse(
        _ items: [(name: String, value: String)],
        fields: [String: FieldType]
    ) throws(Problem) -> ResourceQuery {
        var query = ResourceQuery()
        guard !items.isEmpty else { return query }
        var sortTerms: [Substring] = []
        var orders: [Substring]?
        for (name, value) in items {
            switch name {
            case "_sort":
                sortTerms += value.split(separator: ",", omittingEmptySubsequences: false)
            case "_order":
                orders = (orders ?? []) + value.split(separator: ",", omittingEmptySubsequences: false)
            case "_page":
                guard query.page == nil else { throw Problem("_page given more than once") }
                query.page = try positiveInteger(value, name: name)
            case "_limit", "_per_page":
                guard query.limit == nil else { throw Problem("_limit or _per_page given more than once") }
                query.limit = try positiveInteger(value, name: name)
            default:
                if name.hasPrefix("_") {
                    let supported = supportedParameters.joined(separator: ", ")
                    throw Problem(#"unsupported parameter "\#(name)"; supported: \#(supported)"#)
                }
                guard let type = fields[name] else {
                    throw Problem(#"unknown field "\#(name)" in a filter; \#(known(fields))"#)
                }
                guard type.accepts(text: value) else {
                    throw Problem(#"filter "\#(name)" expects \#(type.kind.rawValue), not "\#(value)""#)
                }
                query.filters.append((field: name, value: value))
            }
        }
        query.sort = try sortFields(sortTerms, orders: orders, fields: fields)
        return query
    }

    /// "known fields: a, b", for a problem's message (made only for one).
    private static func known(_ fields: [String: FieldType]) -> String {
        "known fields: " + fields.keys.sorted().joined(separator: ", ")
    }

    private static func sortFields(
        _ terms: [Substring],
        orders: [Substring]?,
        fields: [String: FieldType]
    ) throws(Problem) -> [(field: String, descending: Bool)] {
        var sort: [(field: String, descending: Bool)] = []
        for term in terms {
            let descending = term.hasPrefix("-")
            let field = String(descending ? term.dropFirst() : term)
            guard fields[field] != nil else {
                let shown = field.isEmpty ? "an empty field" : #"unknown field "\#(field)""#
                throw Problem("_sort: \(shown); \(known(fields))")
            }
            if descending, orders != nil {
                throw Problem(#"_sort "\#(term)": give directions with a leading '-' or with _order, not both"#)
            }
            sort.append((field: field, descending: descending))
        }
        guard let orders else { return sort }
        guard !sort.isEmpty else { throw Problem("_order needs _sort") }
        var descending: [Bool] = []
        for order in orders {
            switch order {
            case "asc": descending.append(false)
            case "desc": descending.append(true)
            default: throw Problem(#"_order must be asc or desc, not "\#(order)""#)
            }
        }
        if descending.count == 1 { descending = Array(repeating: descending[0], count: sort.count) }
        guard descending.count == sort.count else {
            let counts = "\(descending.count) directions for \(sort.count) _sort fields"
            throw Problem("_order lists \(counts): give one, or one per field")
        }
        for index in sort.indices { sort[index].descending = descending[index] }
        return sort
    }

    /// Digits only (no sign, space or fraction), at least 1, and small enough for an `Int`.
    private static func positiveInteger(_ text: String, name: String) throws(Problem) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(text), number > 0
        else { throw Problem(#"\#(name) must be a positive integer, not "\#(text)""#) }
        return number
    }
}
