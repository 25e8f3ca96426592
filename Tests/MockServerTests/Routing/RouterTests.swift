import ContractModel
import HTTPCore
@testable import MockServer
import Testing

/// Which endpoint a method and path reach, without a socket. Each case reads
/// `router.resolve("<METHOD> <path>") == "<the endpoint's METHOD and template> <parameters>"`,
/// `"405 <Allow>"` or `"404"`.
struct RouterTests {
    // MARK: - Precedence

    @Test(arguments: [
        ["GET /question/today", "GET /question/{index}"],
        ["GET /question/{index}", "GET /question/today"],
    ])
    func literalSegment_WinsOverParameter_InEitherContractOrder(routes: [String]) throws {
        // GIVEN
        let router = try Router(routes)
        // WHEN / THEN
        #expect(router.resolve("GET /question/today") == "GET /question/today")
        #expect(router.resolve("GET /question/7") == "GET /question/{index} index=7")
    }

    @Test(arguments: [
        ["GET /a/b/{x}", "GET /a/{y}/c"],
        ["GET /a/{y}/c", "GET /a/b/{x}"],
    ])
    func earliestLiteral_Wins_WhenTemplatesHaveAsManyParameters(routes: [String]) throws {
        let router = try Router(routes)
        #expect(router.resolve("GET /a/b/c") == "GET /a/b/{x} x=c")
        #expect(router.resolve("GET /a/b/z") == "GET /a/b/{x} x=z")
        #expect(router.resolve("GET /a/q/c") == "GET /a/{y}/c y=q")
        #expect(router.resolve("GET /a/q/z") == "404")
    }

    @Test(arguments: [
        ["GET /a/{y}/c/d", "GET /a/b/{x}/{z}"],
        ["GET /a/b/{x}/{z}", "GET /a/{y}/c/d"],
    ])
    func earliestLiteral_Wins_EvenOverFewerParameters(routes: [String]) throws {
        let router = try Router(routes)
        #expect(router.resolve("GET /a/b/c/d") == "GET /a/b/{x}/{z} x=c z=d")
        #expect(router.resolve("GET /a/q/c/d") == "GET /a/{y}/c/d y=q")
    }

    @Test func literalBranch_Backtracks_ToParameter_WhenItHoldsNoRouteForThePath() throws {
        // GIVEN literal subtrees that match the first segments of the requests, then end
        let router = try Router(["GET /a/b/c", "GET /a/{x}/d", "GET /a/b/c/d/e", "GET /{y}/b/c/d/f"])
        // WHEN / THEN
        #expect(router.resolve("GET /a/b/d") == "GET /a/{x}/d x=b")
        #expect(router.resolve("GET /a/b/c/d/f") == "GET /{y}/b/c/d/f y=a")
        #expect(router.resolve("GET /a/b/c/d") == "404")
    }

    /// Past four literal children a node finds them by its index, both while the tree is built (templates
    /// sharing a literal share its child) and while a request is matched (byte for byte).
    @Test func nodesWithManyLiteralChildren_ShareAChild_AndMatchByIndex() throws {
        let router = try Router(["GET /p/a", "GET /p/b", "GET /p/c", "GET /p/d", "GET /p/e/one",
                                 "GET /p/f/one", "GET /p/f/two", "GET /p/e/two"])
        #expect(router.resolve("GET /p/f/one") == "GET /p/f/one")
        #expect(router.resolve("GET /p/f/two") == "GET /p/f/two")
        #expect(router.resolve("GET /p/e/two") == "GET /p/e/two")
        #expect(router.resolve("GET /p/%61") == "GET /p/a")
        #expect(router.resolve("GET /p/g") == "404")
    }

    @Test func literalBranch_Backtracks_WhenItsRouteTakesAnotherMethod() throws {
        let router = try Router(["POST /a/b", "GET /a/{x}"])
        #expect(router.resolve("GET /a/b") == "GET /a/{x} x=b")
        #expect(router.resolve("POST /a/b") == "POST /a/b")
        #expect(router.resolve("POST /a/c") == "405 GET, HEAD")
    }

    // MARK: - Methods

    @Test func methodNotAllowed_ListsEveryMatchingMethodOnce_InTheOrderTried() throws {
        // GIVEN two nodes matching /items: the literal one, tried first, and the parameter one
        let router = try Router(["PUT /{any}", "GET /items", "DELETE /items", "HEAD /{thing}", "POST /{thing}"])
        // WHEN
        let first = router.resolve("PATCH /items")
        // THEN HEAD follows GET, and appears once though an endpoint declares it too
        #expect(first == "405 GET, HEAD, DELETE, PUT, POST")
        #expect(router.resolve("PATCH /items") == first)
    }

    @Test func head_IsServedByGET_AndHEADEndpointsTakeOnlyHEAD() throws {
        let router = try Router(["GET /a", "HEAD /only"])
        #expect(router.resolve("HEAD /a") == "GET /a")
        #expect(router.resolve("DELETE /a") == "405 GET, HEAD")
        #expect(router.resolve("HEAD /only") == "HEAD /only")
        #expect(router.resolve("GET /only") == "405 HEAD")
    }

    @Test func head_PrefersAMoreLiteralGET_OverALessLiteralHEAD() throws {
        let router = try Router(["HEAD /a/{x}", "GET /a/b"])
        #expect(router.resolve("HEAD /a/b") == "GET /a/b")
        #expect(router.resolve("HEAD /a/c") == "HEAD /a/{x} x=c")
    }

    // MARK: - Paths

    @Test func unmatchedPaths_AreNotFound_AndEmptySegmentsMatchOnlyEmptyLiterals() throws {
        let router = try Router(["GET /a/{x}", "GET /b/", "GET /", "GET /c//d"])
        #expect(router.resolve("GET /nothing") == "404")
        #expect(router.resolve("GET /a") == "404")
        #expect(router.resolve("GET /a/") == "404")
        #expect(router.resolve("GET /a/1/2") == "404")
        #expect(router.resolve("GET /b") == "404")
        #expect(router.resolve("GET /b/") == "GET /b/")
        #expect(router.resolve("GET /") == "GET /")
        #expect(router.resolve("GET //") == "404")
        #expect(router.resolve("GET /c//d") == "GET /c//d")
        #expect(router.resolve("OPTIONS *") == "404")
    }

    @Test func parameters_AreTheDecodedSegments_NamedByTheMatchedTemplate() throws {
        let router = try Router(["GET /users/{user}/posts/{post}", "PUT /users/{id}/posts/{n}"])
        #expect(router.resolve("GET /users/a%2Fb/posts/%E2%82%AC")
            == "GET /users/{user}/posts/{post} post=€ user=a/b")
        #expect(router.resolve("PUT /users/7/posts/8") == "PUT /users/{id}/posts/{n} id=7 n=8")
    }

    /// A node compares a few literal children in turn and hashes many; both find the same.
    @Test(arguments: 1...7)
    func literalChildren_AreAllFound_WhateverTheirNumber(count: Int) throws {
        let router = try Router((0..<count).map { "GET /w\($0)/end" } + ["GET /{x}/end"])
        for index in 0..<count {
            #expect(router.resolve("GET /w\(index)/end") == "GET /w\(index)/end")
        }
        #expect(router.resolve("GET /w\(count)/end") == "GET /{x}/end x=w\(count)")
    }

    @Test func thousandEndpoints_ResolveTheFirstAndTheLast() throws {
        let routes = (0..<1000).map { "GET /bench/r\(String(10_000 + $0).dropFirst())/items/{id}" }
        let router = try Router(routes)
        #expect(router.resolve("GET /bench/r0000/items/1") == "GET /bench/r0000/items/{id} id=1")
        #expect(router.resolve("GET /bench/r0999/items/2") == "GET /bench/r0999/items/{id} id=2")
        #expect(router.resolve("POST /bench/r0999/items/2") == "405 GET, HEAD")
        #expect(router.resolve("GET /bench/r1000/items/2") == "404")
    }

    // MARK: - The rule as a scan

    /// The tree agrees with the rule stated without one: of the templates that match the path, the
    /// one with a literal where the others have a parameter at the first segment they differ
    /// (contract order among templates of the same shape) and the first that takes the method.
    @Test func match_AgreesWithAScanInLiteralFirstOrder_OnGeneratedContracts() throws {
        var random = SplitMix64(seed: 11)
        let methods = ["GET", "POST", "HEAD", "DELETE"]
        let words = ["a", "b", ""]
        for _ in 0..<200 {
            var routes: [String] = []
            var shapes: Set<String> = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let method = methods.randomElement(using: &random) ?? "GET"
                let segments = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    Bool.random(using: &random) ? "{\(["x", "y"].randomElement(using: &random) ?? "x")}"
                        : words.randomElement(using: &random) ?? "a"
                }
                let shape = method + " /" + segments.map { $0.hasPrefix("{") ? "{}" : $0 }.joined(separator: "/")
                guard shapes.insert(shape).inserted else { continue }
                routes.append(method + " /" + segments.joined(separator: "/"))
            }
            let endpoints = try ContractEndpoint.make(routes)
            let router = Router(endpoints)
            for _ in 0..<20 {
                let path = "/" + (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    (words + ["c"]).randomElement(using: &random) ?? "c"
                }.joined(separator: "/")
                let method = methods.randomElement(using: &random) ?? "GET"
                #expect(router.resolve(method + " " + path) == scan(endpoints, method: method, path: path),
                        "\(routes)")
            }
        }
    }

    private func scan(_ endpoints: [ContractEndpoint], method: String, path: String) -> String {
        let segments = PercentDecoding.segments(of: Substring(path)) ?? []
        func kinds(_ endpoint: ContractEndpoint) -> [Int] {
            endpoint.path.segments.map { if case .literal = $0 { 0 } else { 1 } }
        }
        let matching = endpoints.filter { $0.path.match(segments) != nil }.enumerated().sorted { lhs, rhs in
            kinds(lhs.element) == kinds(rhs.element) ? lhs.offset < rhs.offset
                : kinds(lhs.element).lexicographicallyPrecedes(kinds(rhs.element))
        }.map(\.element)
        if let endpoint = matching.first(where: { $0.method == method || (method == "HEAD" && $0.method == "GET") }) {
            return describe(endpoint.id, endpoint.path.match(segments) ?? [:])
        }
        var allowed: [String] = []
        for endpoint in matching {
            for allow in endpoint.method == "GET" ? ["GET", "HEAD"] : [endpoint.method] where !allowed.contains(allow) {
                allowed.append(allow)
            }
        }
        return allowed.isEmpty ? "404" : "405 " + allowed.joined(separator: ", ")
    }
}

// MARK: - Helpers

private extension Router {
    init(_ routes: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.init(try ContractEndpoint.make(routes, sourceLocation: sourceLocation))
    }

    init(_ endpoints: [ContractEndpoint]) {
        self.init(routes: endpoints.map { Route($0, serverScenario: nil) })
    }

    /// `"<METHOD> <path>"` resolved to the matched endpoint's id (its method and template) and
    /// parameters, `"405 <allow list>"` or `"404"`.
    func resolve(_ request: String) -> String {
        let parts = request.split(separator: " ", maxSplits: 1)
        var resolved = "malformed"
        _ = PathSegments.with(parts[1]) { segments in
            switch match(method: .init(rawValue: String(parts[0])), segments: segments) {
            case .route(let route, let parameters): resolved = describe(route.id, parameters)
            case .methodNotAllowed(let allow): resolved = "405 " + allow.map(\.rawValue).joined(separator: ", ")
            case .notFound: resolved = "404"
            }
        }
        return resolved
    }
}

private func describe(_ id: String, _ parameters: [String: String]) -> String {
    ([id] + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
}

/// A seeded generator, so a failure names contracts that can be replayed.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
