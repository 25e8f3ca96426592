import ContractModel
import Testing

/// json-server style listing: `?field=value` filters, `_sort`/`_order`, `_page`/`_limit`.
struct ResourceQueryTests {
    private static let fields: [String: FieldType] = [
        "id": FieldType(kind: .integer), "productId": FieldType(kind: .integer), "name": FieldType(kind: .string),
        "price": FieldType(kind: .number, isOptional: true), "inStock": FieldType(kind: .boolean),
    ]
    private static let known = "known fields: id, inStock, name, price, productId"

    private static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    private static func items() throws -> [JSONValue] {
        try [
            #"{"id":1,"productId":3,"name":"Widget","price":9.5,"inStock":true}"#,
            #"{"id":2,"productId":1,"name":"bolt","price":0.25,"inStock":false}"#,
            #"{"id":3,"productId":3,"name":"\u00c1rbol","price":12,"inStock":true}"#,
            #"{"id":4,"productId":2,"name":"Zebra","inStock":false}"#,
            #"{"id":5,"productId":3,"name":"apple","price":null,"inStock":true}"#,
        ].map(json)
    }

    private static func parse(_ items: [(String, String)]) throws(ResourceQuery.Problem) -> ResourceQuery {
        try ResourceQuery.parse(items.map { (name: $0.0, value: $0.1) }, fields: fields)
    }

    private static func problem(_ items: [(String, String)]) -> String? {
        do {
            _ = try parse(items)
            return nil
        } catch {
            return error.message
        }
    }

    /// The ids of the items `query` lists from the fixture, and the total it reports.
    private static func ids(_ query: ResourceQuery, of items: [JSONValue]? = nil) throws -> ([Int], Int) {
        let result = query.apply(to: try items ?? Self.items())
        let ids = result.page.map { item -> Int in
            guard case .object(let members) = item, case .number(let id) = members["id"] else { return -1 }
            return Int(id)
        }
        return (ids, result.total)
    }

    // MARK: - Parsing

    @Test func parse_ReadsFiltersSortPageAndLimit_WhenAllAreGiven() throws {
        let query = try Self.parse([("productId", "3"), ("_sort", "price,-id"), ("_page", "2"), ("_limit", "5")])
        #expect(query == ResourceQuery(
            filters: [(field: "productId", value: "3")],
            sort: [(field: "price", descending: false), (field: "id", descending: true)],
            page: 2,
            limit: 5
        ))
    }

    @Test func parse_ReadsOneDirectionPerSortField_WhenOrderListsSeveral() throws {
        let query = try Self.parse([("_sort", "name,id,price"), ("_order", "desc,asc,desc")])
        #expect(query.sort.map(\.field) == ["name", "id", "price"])
        #expect(query.sort.map(\.descending) == [true, false, true])
    }

    @Test func parse_AppliesASingleOrder_ToEverySortField() throws {
        let query = try Self.parse([("_sort", "name,id"), ("_order", "desc")])
        #expect(query.sort.map(\.descending) == [true, true])
        #expect(try Self.parse([("_sort", "id"), ("_order", "asc")]).sort.map(\.descending) == [false])
    }

    @Test func parse_JoinsRepeatedSortAndOrderParameters_InTheirOrder() throws {
        let query = try Self.parse([("_sort", "name"), ("_order", "asc"), ("_sort", "id"), ("_order", "desc")])
        #expect(query.sort.map(\.field) == ["name", "id"])
        #expect(query.sort.map(\.descending) == [false, true])
    }

    @Test func parse_ReadsPerPage_AsASynonymOfLimit() throws {
        #expect(try Self.parse([("_page", "3"), ("_per_page", "25")]) == ResourceQuery(page: 3, limit: 25))
    }

    @Test func parse_LeavesLimitUnset_WhenOnlyPageIsGiven() throws {
        let query = try Self.parse([("_page", "2")])
        #expect(query.page == 2 && query.limit == nil)
    }

    @Test func parse_KeepsRepeatedFilters_InTheirOrder() throws {
        let query = try Self.parse([("id", "1"), ("name", "x"), ("id", "2")])
        #expect(query.filters.map(\.field) == ["id", "name", "id"])
        #expect(query.filters.map(\.value) == ["1", "x", "2"])
    }

    @Test func parse_IsEmpty_WhenThereAreNoItems() throws {
        #expect(try Self.parse([]) == ResourceQuery())
    }

    @Test func parse_Throws_NamingTheKnownFields_WhenAFilterFieldIsUnknown() {
        #expect(Self.problem([("colour", "red")]) == #"unknown field "colour" in a filter; \#(Self.known)"#)
        #expect(Self.problem([("price_gte", "1")]) == #"unknown field "price_gte" in a filter; \#(Self.known)"#)
    }

    @Test(arguments: ["colour", "-colour", "id,colour", "", "-", "id,", "id, name"])
    func parse_Throws_NamingTheKnownFields_WhenASortFieldIsUnknownOrEmpty(sort: String) throws {
        let message = try #require(Self.problem([("_sort", sort)]))
        #expect(message.hasPrefix("_sort: "))
        #expect(message.hasSuffix(Self.known))
    }

    @Test(arguments: [("id", "abc"), ("id", "1.5"), ("id", ""), ("productId", "3x"), ("price", "cheap"),
                      ("price", "nan"), ("inStock", "yes"), ("inStock", "True"), ("inStock", "1")])
    func parse_Throws_WhenAFilterValueDoesNotFitTheFieldType(field: String, value: String) throws {
        let message = try #require(Self.problem([(field, value)]))
        #expect(message.contains(#""\#(field)""#) && message.contains(#""\#(value)""#))
    }

    @Test(
        arguments: ["_page", "_limit", "_per_page"],
        ["0", "-1", "abc", "", "1.0", "+2", " 2", "99999999999999999999"]
    )
    func parse_Throws_WhenPageOrLimitIsNotAPositiveInteger(name: String, value: String) {
        #expect(Self.problem([(name, value)]) == #"\#(name) must be a positive integer, not "\#(value)""#)
    }

    @Test(arguments: ["up", "DESC", "", "asc,", "desc,down"])
    func parse_Throws_WhenOrderIsNotAscOrDesc(order: String) throws {
        let fields = order.split(separator: ",", omittingEmptySubsequences: false).map { _ in "id" }
        let message = try #require(Self.problem([("_sort", fields.joined(separator: ",")), ("_order", order)]))
        #expect(message.hasPrefix("_order must be asc or desc, not "))
    }

    @Test func parse_Throws_WhenOrderHasNeitherOneDirectionNorOnePerSortField() {
        #expect(Self.problem([("_sort", "id,name,price"), ("_order", "asc,desc")])
            == "_order lists 2 directions for 3 _sort fields: give one, or one per field")
    }

    @Test func parse_Throws_WhenOrderIsGivenWithoutSort() {
        #expect(Self.problem([("_order", "desc")]) == "_order needs _sort")
    }

    @Test func parse_Throws_WhenALeadingMinusIsMixedWithOrder() {
        #expect(Self.problem([("_sort", "-id"), ("_order", "asc")])
            == #"_sort "-id": give directions with a leading '-' or with _order, not both"#)
    }

    @Test(arguments: [[("_page", "1"), ("_page", "2")], [("_limit", "1"), ("_per_page", "1")],
                      [("_limit", "5"), ("_limit", "5")]])
    func parse_Throws_WhenPageOrLimitIsGivenTwice(items: [(String, String)]) throws {
        #expect(try #require(Self.problem(items)).hasSuffix("given more than once"))
    }

    @Test(arguments: ["_embed", "_start", "_end", "_q", "_", "_SORT"])
    func parse_Throws_ListingTheSupportedParameters_WhenAnUnderscoreParameterIsUnknown(name: String) {
        #expect(Self.problem([(name, "1")])
            == #"unsupported parameter "\#(name)"; supported: _sort, _order, _page, _limit, _per_page"#)
    }

    @Test func problem_DescribesItselfWithItsMessage() {
        #expect(ResourceQuery.Problem("oops").description == "oops")
    }

    @Test func equality_ComparesFiltersAndSortInOrder() {
        let query = ResourceQuery(filters: [("a", "1"), ("b", "2")], sort: [("a", false)])
        #expect(query == ResourceQuery(filters: [("a", "1"), ("b", "2")], sort: [("a", false)]))
        #expect(query != ResourceQuery(filters: [("b", "2"), ("a", "1")], sort: [("a", false)]))
        #expect(query != ResourceQuery(filters: [("a", "1"), ("b", "2")], sort: [("a", true)]))
        #expect(query != ResourceQuery(filters: [("a", "1")], sort: [("a", false)]))
        #expect(query != ResourceQuery(filters: [("a", "1"), ("b", "2")], sort: [("a", false)], page: 1))
        #expect(ResourceQuery(limit: 1) != ResourceQuery(limit: 2))
    }

    // MARK: - Filtering

    @Test func apply_ListsEverything_WhenTheQueryIsEmpty() throws {
        #expect(try Self.ids(ResourceQuery()) == ([1, 2, 3, 4, 5], 5))
    }

    @Test(arguments: ["3", "03", "+3", "3.0", "3e0"])
    func apply_ComparesNumerically_WhenTheFieldIsANumber(value: String) throws {
        #expect(try Self.ids(ResourceQuery(filters: [("id", value)])) == ([3], 1))
    }

    @Test func apply_MatchesAFractionalNumber_WhateverItsSpelling() throws {
        #expect(try Self.ids(ResourceQuery(filters: [("price", "9.50")])) == ([1], 1))
        #expect(try Self.ids(ResourceQuery(filters: [("price", "12")])) == ([3], 1))
    }

    @Test func apply_ComparesBooleansByTrueAndFalse() throws {
        #expect(try Self.ids(ResourceQuery(filters: [("inStock", "false")])) == ([2, 4], 2))
        #expect(try Self.ids(ResourceQuery(filters: [("inStock", "true")])) == ([1, 3, 5], 3))
    }

    @Test func apply_ComparesStringsExactly() throws {
        #expect(try Self.ids(ResourceQuery(filters: [("name", "bolt")])) == ([2], 1))
        #expect(try Self.ids(ResourceQuery(filters: [("name", "Bolt")])) == ([], 0))
        #expect(try Self.ids(ResourceQuery(filters: [("name", "bol")])) == ([], 0))
        #expect(try Self.ids(ResourceQuery(filters: [("name", "\u{C1}rbol")])) == ([3], 1))
        // A canonically equivalent spelling (A + combining acute) is a different string of scalars.
        #expect(try Self.ids(ResourceQuery(filters: [("name", "A\u{301}rbol")])) == ([], 0))
    }

    @Test func apply_AndsFiltersOnDifferentFields() throws {
        let query = try Self.parse([("productId", "3"), ("inStock", "true"), ("name", "apple")])
        #expect(try Self.ids(query) == ([5], 1))
    }

    @Test func apply_OrsTheValuesOfARepeatedField() throws {
        let query = try Self.parse([("id", "1"), ("inStock", "false"), ("id", "2"), ("id", "4")])
        #expect(try Self.ids(query) == ([2, 4], 2))
    }

    @Test func apply_NeverMatches_WhenTheFieldIsMissingOrNull() throws {
        // Item 4 has no price and item 5 a null one: no value of the filter selects them.
        #expect(try Self.ids(ResourceQuery(filters: [("price", "0")])) == ([], 0))
        #expect(try Self.ids(ResourceQuery(filters: [("price", "0"), ("price", "9.5")])) == ([1], 1))
    }

    @Test func apply_DoesNotMatch_WhenTheItemHoldsAnotherJSONType() throws {
        let items = try [#"{"id":1,"v":"3"}"#, #"{"id":2,"v":3}"#, #"{"id":3,"v":true}"#, #"{"id":4,"v":"true"}"#]
            .map(Self.json)
        #expect(try Self.ids(ResourceQuery(filters: [("v", "true")]), of: items) == ([3, 4], 2))
        #expect(try Self.ids(ResourceQuery(filters: [("v", "03")]), of: items) == ([2], 1))
    }

    @Test func apply_SkipsItemsThatAreNotObjects_WhenFiltering() throws {
        let items = try [#"{"id":1}"#, "3", "null", #"[{"id":1}]"#].map(Self.json)
        #expect(try Self.ids(ResourceQuery(filters: [("id", "1")]), of: items) == ([1], 1))
    }

    // MARK: - Sorting

    @Test func apply_SortsNumbersNumerically_WithMissingAndNullFirst() throws {
        #expect(try Self.ids(ResourceQuery(sort: [("price", false)])) == ([4, 5, 2, 1, 3], 5))
    }

    @Test func apply_PutsMissingAndNullLast_WhenDescending_KeepingTiesInInputOrder() throws {
        #expect(try Self.ids(ResourceQuery(sort: [("price", true)])) == ([3, 1, 2, 4, 5], 5))
    }

    @Test func apply_SortsStringsByUnicodeScalar() throws {
        // "W" < "Z" < "a" < "b" < "Á": code points, not a locale's collation.
        #expect(try Self.ids(ResourceQuery(sort: [("name", false)])) == ([1, 4, 5, 2, 3], 5))
        #expect(try Self.ids(ResourceQuery(sort: [("name", true)])) == ([3, 2, 5, 4, 1], 5))
    }

    @Test func apply_SortsNumbers_NotTheirDigits() throws {
        let items = try [#"{"id":1,"n":100}"#, #"{"id":2,"n":9}"#, #"{"id":3,"n":-1.5}"#, #"{"id":4,"n":10}"#]
            .map(Self.json)
        #expect(try Self.ids(ResourceQuery(sort: [("n", false)]), of: items) == ([3, 2, 4, 1], 4))
    }

    @Test func apply_SortsStably_KeepingEqualItemsInInputOrder() throws {
        #expect(try Self.ids(ResourceQuery(sort: [("productId", false)])) == ([2, 4, 1, 3, 5], 5))
        #expect(try Self.ids(ResourceQuery(sort: [("productId", true)])) == ([1, 3, 5, 4, 2], 5))
    }

    @Test func apply_BreaksTiesWithTheNextSortField() throws {
        let query = try Self.parse([("_sort", "productId,-id")])
        #expect(try Self.ids(query) == ([2, 4, 5, 3, 1], 5))
        let older = try Self.parse([("_sort", "inStock,name"), ("_order", "desc,asc")])
        #expect(try Self.ids(older) == ([1, 5, 3, 4, 2], 5))
    }

    @Test func apply_OrdersMixedTypes_NullThenBooleansNumbersStringsAndContainers() throws {
        let items = try [
            #"{"id":1,"v":"a"}"#, #"{"id":2,"v":[1]}"#, #"{"id":3,"v":2}"#, #"{"id":4,"v":true}"#,
            #"{"id":5}"#, #"{"id":6,"v":false}"#, #"{"id":7,"v":null}"#, #"{"id":8,"v":{"a":1}}"#,
        ].map(Self.json)
        #expect(try Self.ids(ResourceQuery(sort: [("v", false)]), of: items) == ([5, 7, 6, 4, 3, 1, 2, 8], 8))
    }

    // MARK: - Paging

    @Test func apply_ReturnsTheRequestedPage_AndTheTotalBeforePaging() throws {
        #expect(try Self.ids(ResourceQuery(page: 1, limit: 2)) == ([1, 2], 5))
        #expect(try Self.ids(ResourceQuery(page: 2, limit: 2)) == ([3, 4], 5))
        #expect(try Self.ids(ResourceQuery(page: 3, limit: 2)) == ([5], 5))
    }

    @Test func apply_IsEmptyButKeepsTheTotal_WhenThePageIsPastTheEnd() throws {
        #expect(try Self.ids(ResourceQuery(page: 4, limit: 2)) == ([], 5))
        #expect(try Self.ids(ResourceQuery(page: .max, limit: .max)) == ([], 5))
    }

    @Test func apply_TakesTheFirstItems_WhenOnlyLimitIsGiven() throws {
        #expect(try Self.ids(ResourceQuery(limit: 3)) == ([1, 2, 3], 5))
    }

    @Test func apply_UsesTenPerPage_WhenOnlyPageIsGiven() throws {
        let items = try (1...25).map { try Self.json(#"{"id":\#($0)}"#) }
        #expect(try Self.ids(Self.parse([("_page", "1")]), of: items) == (Array(1...10), 25))
        #expect(try Self.ids(Self.parse([("_page", "3")]), of: items) == (Array(21...25), 25))
        #expect(ResourceQuery.defaultLimit == 10)
    }

    @Test func apply_FiltersThenSortsThenPages_CountingTheFilteredItems() throws {
        let query = try Self.parse([("productId", "3"), ("_sort", "-price"), ("_page", "1"), ("_limit", "2")])
        #expect(try Self.ids(query) == ([3, 1], 3))
    }
}
