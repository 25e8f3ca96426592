import ContractModel
import Foundation
import MockServer
import Testing
import TestSupport

/// A resource declared in a contract, served over real sockets: REST semantics, ETags, per session.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ResourceTests {
    static let contract = """
        {"domain": "cart", "resources": [{"id": "cartItems", "path": "/api/cart/items",
          "fields": {"productId": "integer", "quantity": "integer", "note": "string?"},
          "seed": "cart/items.json", "maxItems": 4}]}
        """
    static let seed = #"[{"id": 1, "productId": 1, "quantity": 2}, {"id": 2, "productId": 3, "quantity": 1}]"#

    /// Runs `body`'s blocking socket calls on a thread of its own, not the test pool's.
    private func withCart(_ body: @escaping @Sendable (MockServer, RawClient) throws -> Void) async throws {
        let folder = try ScratchContracts(contracts: [("cart.json", Self.contract)], fixtures: [("cart/items.json", Self.seed)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            try await offThePool { try body(server, try RawClient(port: server.port)) }
        }
    }

    private func json(_ response: RawResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(response.body))
    }

    private let jsonType = ["Content-Type": "application/json"]

    @Test func createReadUpdateDelete_WalkTheStore() async throws {
        try await withCart { _, client in
            let created = try client.request("POST", "/api/cart/items", headers: jsonType, body: #"{"productId": 7, "quantity": 1}"#)
            #expect(created.status == 201)
            #expect(created.header("Location") == "/api/cart/items/3")
            #expect((try json(created) as? [String: Any])?["id"] as? Int == 3)

            let read = try client.get("/api/cart/items/3")
            #expect(read.status == 200 && read.header("ETag") == created.header("ETag"))

            let patched = try client.request("PATCH", "/api/cart/items/3", headers: ["Content-Type": "application/merge-patch+json"],
                                             body: #"{"quantity": 5, "note": "gift"}"#)
            #expect(patched.status == 200)
            #expect((try json(patched) as? [String: Any])?["quantity"] as? Int == 5)

            let replaced = try client.request("PUT", "/api/cart/items/3", headers: jsonType, body: #"{"productId": 8, "quantity": 2}"#)
            #expect(replaced.status == 200)
            #expect((try json(replaced) as? [String: Any])?["note"] == nil, "PUT replaces the whole item")

            #expect(try client.request("DELETE", "/api/cart/items/3").status == 204)
            #expect(try client.get("/api/cart/items/3").status == 404)
            let list = try client.get("/api/cart/items")
            #expect((try json(list) as? [Any])?.count == 2)
            #expect(list.header("X-Total-Count") == "2")
        }
    }

    @Test func list_FiltersSortsAndPages() async throws {
        try await withCart { _, client in
            for product in [5, 9] {
                _ = try client.request("POST", "/api/cart/items", headers: jsonType, body: #"{"productId": \#(product), "quantity": 1}"#)
            }
            let filtered = try client.get("/api/cart/items?productId=5")
            #expect((try json(filtered) as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [3])
            let sorted = try client.get("/api/cart/items?_sort=-productId&_limit=2&_page=1")
            #expect((try json(sorted) as? [[String: Any]])?.compactMap { $0["productId"] as? Int } == [9, 5])
            #expect(sorted.header("X-Total-Count") == "4")
            let bad = try client.get("/api/cart/items?colour=red")
            #expect(bad.status == 400 && bad.text.contains("productId"))
        }
    }

    /// A list in the envelope is the bytes the JSON writer gives the whole answer, keys sorted, though its items are
    /// spliced in from their kept JSON.
    @Test func anEnvelopedList_IsWrittenAsTheJSONWriterWritesIt() async throws {
        let contract = #"{"domain": "q", "resources": [{"id": "notes", "path": "/api/notes", "shape": "envelope", "#
            + #""fields": {"text": "string", "n": "number"}, "seed": "notes.json"}]}"#
        let seed = #"[{"id": 1, "text": "é q/", "n": 1.5}, {"id": 2, "text": "b", "n": 2}]"#
        let folder = try ScratchContracts(contracts: [("q.json", contract)], fixtures: [("notes.json", seed)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            try await offThePool {
                let client = try RawClient(port: server.port)
                let list = try client.get("/api/notes?_sort=-n")
                let items = try JSONValue.parse(Array(seed.utf8))
                guard case .array(let all) = items else { Issue.record("seed"); return }
                let expected = JSONValue.object(["status": .number(200), "responseMsg": .string("OK"),
                                                 "data": .array(all.reversed())]).serialized
                #expect(list.text == String(decoding: expected, as: UTF8.self))
                let empty = try client.get("/api/notes?text=none")
                #expect(empty.text == #"{"data":[],"responseMsg":"OK","status":200}"#)
            }
        }
    }

    @Test func badBodies_Are400NamingEveryField_AndNothingChanges() async throws {
        try await withCart { _, client in
            let bad = try client.request("POST", "/api/cart/items", headers: jsonType, body: #"{"productId": "x", "colour": 1}"#)
            #expect(bad.status == 400)
            #expect(bad.text.contains("productId") && bad.text.contains("quantity") && bad.text.contains("colour"))
            #expect(try client.request("POST", "/api/cart/items", headers: jsonType, body: "{").status == 400)
            #expect(try client.request("POST", "/api/cart/items", headers: jsonType,
                                       body: #"{"id": 9, "productId": 1, "quantity": 1}"#).status == 400)
            let patchID = try client.request("PATCH", "/api/cart/items/1", headers: jsonType, body: #"{"id": 5}"#)
            #expect(patchID.status == 400 && patchID.text.contains("cannot change"))
            #expect(try client.get("/api/cart/items").header("X-Total-Count") == "2")
        }
    }

    @Test func anItemReadAgain_AfterAnotherChanged_IsItsOwnCurrentState() async throws {
        // Reads keep each item's written bytes until an item changes: a delete moves the others' places, a patch
        // changes one; each later read still gives the item asked for, as it is now.
        try await withCart { _, client in
            let second = try client.get("/api/cart/items/2")
            #expect(try client.request("DELETE", "/api/cart/items/1").status == 204)
            let again = try client.get("/api/cart/items/2")
            #expect(again.text == second.text && again.header("ETag") == second.header("ETag"))
            let patched = try client.request("PATCH", "/api/cart/items/2", headers: ["Content-Type": "application/merge-patch+json"],
                                             body: #"{"quantity": 9}"#)
            let read = try client.get("/api/cart/items/2")
            #expect((try json(read) as? [String: Any])?["quantity"] as? Int == 9)
            #expect(read.header("ETag") == patched.header("ETag") && read.header("ETag") != second.header("ETag"))
        }
    }

    @Test func aPageAskedAgain_AfterAChange_IsTheCurrentPage() async throws {
        // The last page written is kept until an item changes: the same page asked again after a patch, a replace
        // or a delete shows the change, and another page of the same length is not the kept one.
        try await withCart { _, client in
            let first = try client.get("/api/cart/items?_limit=1&_page=1")
            #expect(try client.get("/api/cart/items?_limit=1&_page=1").text == first.text)
            #expect((try json(try client.get("/api/cart/items?_limit=1&_page=2")) as? [[String: Any]])?.first?["id"] as? Int == 2)
            _ = try client.request("PATCH", "/api/cart/items/1", headers: ["Content-Type": "application/merge-patch+json"],
                                   body: #"{"quantity": 9}"#)
            let patched = try client.get("/api/cart/items?_limit=1&_page=1")
            #expect((try json(patched) as? [[String: Any]])?.first?["quantity"] as? Int == 9)
            _ = try client.request("PUT", "/api/cart/items/1", headers: jsonType, body: #"{"productId": 4, "quantity": 3}"#)
            #expect((try json(try client.get("/api/cart/items?_limit=1&_page=1")) as? [[String: Any]])?.first?["productId"] as? Int == 4)
            for id in [1, 2] { #expect(try client.request("DELETE", "/api/cart/items/\(id)").status == 204) }
            let empty = try client.get("/api/cart/items?_limit=1&_page=1")
            #expect(empty.text == "[]" && empty.header("X-Total-Count") == "0")
        }
    }

    @Test func staleIfMatch_Is412_AndIfNoneMatch_Is304() async throws {
        try await withCart { _, client in
            let tag = try #require(try client.get("/api/cart/items/1").header("ETag"))
            #expect(try client.get("/api/cart/items/1", headers: ["If-None-Match": tag]).status == 304)
            let first = try client.request("PATCH", "/api/cart/items/1", headers: jsonType.merging(["If-Match": tag]) { $1 },
                                           body: #"{"quantity": 3}"#)
            #expect(first.status == 200)
            let stale = try client.request("PATCH", "/api/cart/items/1", headers: jsonType.merging(["If-Match": tag]) { $1 },
                                           body: #"{"quantity": 4}"#)
            #expect(stale.status == 412)
            #expect(try client.request("DELETE", "/api/cart/items/1", headers: ["If-Match": tag]).status == 412)
            #expect(try client.request("DELETE", "/api/cart/items/1", headers: ["If-Match": #""nope"#]).status == 400)
            let current = try #require(first.header("ETag"))
            #expect(try client.request("DELETE", "/api/cart/items/1", headers: ["If-Match": current]).status == 204)
        }
    }

    @Test func sessions_HaveTheirOwnItems_AndTheCapIs507() async throws {
        try await withCart { _, client in
            let a = [MockHeader.session: "a", "Content-Type": "application/json"]
            #expect(try client.request("POST", "/api/cart/items", headers: a, body: #"{"productId": 1, "quantity": 1}"#).status == 201)
            #expect(try client.get("/api/cart/items", headers: [MockHeader.session: "a"]).header("X-Total-Count") == "3")
            #expect(try client.get("/api/cart/items", headers: [MockHeader.session: "b"]).header("X-Total-Count") == "2")
            #expect(try client.get("/api/cart/items").header("X-Total-Count") == "2")
            #expect(try client.request("POST", "/api/cart/items", headers: a, body: #"{"productId": 1, "quantity": 1}"#).status == 201)
            let full = try client.request("POST", "/api/cart/items", headers: a, body: #"{"productId": 1, "quantity": 1}"#)
            #expect(full.status == 507, "maxItems 4")
        }
    }

    @Test func adminAPI_ShowsAndResetsItems_PerSessionOrAll() async throws {
        try await withCart { _, client in
            let a = [MockHeader.session: "a", "Content-Type": "application/json"]
            _ = try client.request("POST", "/api/cart/items", headers: a, body: #"{"productId": 1, "quantity": 1}"#)
            _ = try client.request("POST", "/api/cart/items", headers: jsonType, body: #"{"productId": 1, "quantity": 1}"#)
            let shown = try client.get("/__mock/resources/cartItems?session=a")
            #expect(try shown.status == 200 && (json(shown) as? [Any])?.count == 3)
            #expect(try client.request("DELETE", "/__mock/resources/cartItems?session=a").status == 204)
            #expect(try client.get("/api/cart/items", headers: [MockHeader.session: "a"]).header("X-Total-Count") == "2")
            #expect(try client.get("/api/cart/items").header("X-Total-Count") == "3", "only session a was reset")
            #expect(try client.request("DELETE", "/__mock/resources").status == 204)
            #expect(try client.get("/api/cart/items").header("X-Total-Count") == "2")
            let unknown = try client.get("/__mock/resources/nope")
            #expect(unknown.status == 404 && unknown.text.contains("cartItems"))
        }
    }

    @Test func headOptionsAndOtherMethods_BehaveAsForOtherEndpoints() async throws {
        try await withCart { _, client in
            client.send("HEAD /api/cart/items/1 HTTP/1.1\r\nHost: a\r\n\r\n")
            let head = try #require(RawResponse(parsing: client.readSome() ?? [], bodyless: true))
            #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") != nil)
            let options = try client.request("OPTIONS", "/api/cart/items/1")
            #expect(options.status == 204)
            #expect(options.header("Allow") == "GET, HEAD, PUT, PATCH, DELETE, OPTIONS")
            let post = try client.request("POST", "/api/cart/items/1", headers: jsonType, body: "{}")
            #expect(post.status == 405 && post.header("Allow")?.contains("PATCH") == true)
        }
    }

    @Test func scenarioHeader_StillWins() async throws {
        try await withCart { server, client in
            let failing = try client.request("POST", "/api/cart/items", headers: jsonType.merging([MockHeader.scenario: "serverErr"]) { $1 },
                                             body: #"{"productId": 1, "quantity": 1}"#)
            #expect(failing.status == 500)
            #expect(try client.get("/api/cart/items").header("X-Total-Count") == "2", "the failed create stored nothing")
            #expect(try server.journalEntries(JournalQuery(endpoint: "cartItems.create")).count == 1)
        }
    }

    /// A contract adds scenarios per operation: a form's validation error with its own body, and a create
    /// that fails once and then reaches the store.
    @Test func operationScenarios_FromTheContract_PlayAndThenTheStoreAnswers() async throws {
        let contract = Self.contract.replacingOccurrences(of: #""maxItems": 4"#, with: #"""
            "maxItems": 4, "scenarios": {"create": [
              {"name": "requestErr", "status": 422, "body": "cart/invalid.json", "expect": "requestErr"},
              {"name": "flaky", "sequence": ["serverErr", "store"]}],
             "read": [{"name": "serverErr", "status": 503, "headers": {"Retry-After": "1"}, "expect": "serverErr"}]}
            """#)
        let folder = try ScratchContracts(contracts: [("cart.json", contract)],
                                          fixtures: [("cart/items.json", Self.seed), ("cart/invalid.json", #"{"error": "quantity"}"#)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures) { server in
            let client = try RawClient(port: server.port)
            let body = #"{"productId": 1, "quantity": 1}"#
            let invalid = try client.request("POST", "/api/cart/items", headers: jsonType.merging([MockHeader.scenario: "requestErr"]) { $1 },
                                             body: body)
            #expect(invalid.status == 422 && invalid.text == #"{"error": "quantity"}"#)
            let flaky = jsonType.merging([MockHeader.scenario: "flaky", MockHeader.session: "flaky"]) { $1 }
            #expect(try client.request("POST", "/api/cart/items", headers: flaky, body: body).status == 500)
            let second = try client.request("POST", "/api/cart/items", headers: flaky, body: body)
            #expect(second.status == 201 && second.header("Location") == "/api/cart/items/3")
            let read = try client.request("GET", "/api/cart/items/1", headers: [MockHeader.scenario: "serverErr"])
            #expect(read.status == 503 && read.header("Retry-After") == "1", "the contract's serverErr replaces the built-in one")
            #expect(try client.get("/api/cart/items").header("X-Total-Count") == "2", "only the flaky session stored an item")
        }
    }

    @Test func operationScenarios_BadOnes_AreLoadErrors() throws {
        func problems(_ scenarios: String) throws -> String {
            let folder = try ScratchContracts(contracts: [("cart.json", Self.contract.replacingOccurrences(
                of: #""maxItems": 4"#, with: #""maxItems": 4, "scenarios": "# + scenarios))],
                                              fixtures: [("cart/items.json", Self.seed)])
            do {
                _ = try MockServer(configuration: .init(port: 0, contractsDirectory: folder.contracts, fixturesDirectory: folder.fixtures))
                return ""
            } catch {
                return error.problems.map { "\($0.path): \($0.reason)" }.joined(separator: " | ")
            }
        }
        #expect(try problems(#"{"remove": []}"#).contains("$.resources[0].scenarios.remove: \"remove\" is not an operation"))
        #expect(try problems(#"{"read": [{"name": "store", "status": 200, "expect": "success"}]}"#)
            .contains("$.resources[0].scenarios.read[0].name: \"store\" is the store's own scenario"))
        #expect(try problems(#"{"list": [{"name": "s", "sequence": ["gone"]}]}"#)
            .contains("$.resources[0].scenarios.list[0].sequence[0]: unknown scenario \"gone\"; the endpoint has: store, serverErr"))
        #expect(try problems(#"{"read": [{"name": "e", "status": 404, "body": "cart/missing.json", "expect": "requestErr"}]}"#)
            .contains("cart/missing.json"))
        #expect(try problems("[]").contains("$.resources[0].scenarios: must be an object"))
    }

    @Test func badSeed_IsALoadError_NamingTheItemAndField() throws {
        let folder = try ScratchContracts(contracts: [("cart.json", Self.contract)],
                                          fixtures: [("cart/items.json", #"[{"id": 1, "productId": "one", "quantity": 1}, {"id": 1, "productId": 2, "quantity": 1}]"#)])
        do {
            _ = try MockServer(configuration: .init(port: 0, contractsDirectory: folder.contracts, fixturesDirectory: folder.fixtures))
            Issue.record("a bad seed loaded")
        } catch {
            let reasons = error.problems.map(\.reason).joined(separator: " | ")
            #expect(error.problems.first?.path == "$.resources[0].seed")
            #expect(reasons.contains("item 0: productId must be integer"), "\(reasons)")
        }
    }

    /// Many sessions create and delete at once, each on its own connection: every acknowledged write is
    /// there, and no session sees another's items.
    @Test func manySessionsAtOnce_KeepTheirOwnItems_AndLoseNoWrite() async throws {
        let folder = try ScratchContracts(contracts: [("cart.json", Self.contract.replacingOccurrences(of: #""maxItems": 4"#,
                                                                                                    with: #""maxItems": 100"#))],
                                          fixtures: [("cart/items.json", Self.seed)])
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures, configure: { $0.threads = 2 }) { server in
            let port = server.port
            try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<16 {
                    group.addTask {
                        try await offThePool {
                            let client = try RawClient(port: port)
                            let headers = [MockHeader.session: "s\(index)", "Content-Type": "application/json"]
                            var created: [Int] = []
                            for quantity in 1...10 {
                                let response = try client.request("POST", "/api/cart/items", headers: headers,
                                                                  body: #"{"productId": \#(100 + index), "quantity": \#(quantity)}"#)
                                if response.status == 201, let id = response.header("Location")?.split(separator: "/").last {
                                    created.append(Int(id) ?? 0)
                                }
                            }
                            for id in created.prefix(4) { _ = try client.request("DELETE", "/api/cart/items/\(id)", headers: headers) }
                            let list = try client.get("/api/cart/items", headers: headers)
                            let items = (try? JSONSerialization.jsonObject(with: Data(list.body))) as? [[String: Any]] ?? []
                            let mine = items.filter { $0["productId"] as? Int == 100 + index }.compactMap { $0["id"] as? Int }
                            var problems: [String] = []
                            if created.count != 10 { problems.append("s\(index): \(created.count) of 10 creates acknowledged") }
                            if mine != Array(created.dropFirst(4)) { problems.append("s\(index): kept \(mine), expected \(created.dropFirst(4))") }
                            if items.count != 2 + 6 { problems.append("s\(index): \(items.count) items, expected 8 (2 seeded + 6)") }
                            return problems
                        }
                    }
                }
                var problems: [String] = []
                for try await found in group { problems += found }
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }
}
