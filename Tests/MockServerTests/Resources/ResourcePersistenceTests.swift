import Foundation
import MockServer
import Testing
import TestSupport

/// `--persist`: the default session's items kept in a folder across restarts, written atomically.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ResourcePersistenceTests {
    private let folder: ScratchContracts
    private let keep: String
    private let json = ["Content-Type": "application/json"]

    init() throws {
        folder = try ScratchContracts(contracts: [("cart.json", ResourceTests.contract)],
                                      fixtures: [("cart/items.json", ResourceTests.seed)])
        keep = folder.root + "/kept"
    }

    private var configuration: MockServer.Configuration {
        var configuration = MockServer.Configuration(port: 0, contractsDirectory: folder.contracts,
                                                     fixturesDirectory: folder.fixtures)
        configuration.persistDirectory = keep
        return configuration
    }

    /// Runs `body`'s blocking socket calls on a thread of its own, not the test pool's.
    private func serve(_ body: @escaping @Sendable (RawClient) throws -> Void) async throws {
        try await withServer(contracts: folder.contracts, fixtures: folder.fixtures,
                             configure: { [keep] in $0.persistDirectory = keep }) { server in
            try await offThePool { try body(try RawClient(port: server.port)) }
        }
    }

    private func ids(_ response: RawResponse) throws -> [Int] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]]).compactMap { $0["id"] as? Int }
    }

    @Test func changes_OfTheDefaultSession_SurviveARestart_AndIdsAreNotReused() async throws {
        try await serve { client throws in
            #expect(try client.request("POST", "/api/cart/items", headers: json, body: #"{"productId": 7, "quantity": 1}"#).status == 201)
            #expect(try client.request("POST", "/api/cart/items", headers: json, body: #"{"productId": 8, "quantity": 1}"#).status == 201)
            #expect(try client.request("DELETE", "/api/cart/items/4").status == 204)
            #expect(try client.request("PATCH", "/api/cart/items/1", headers: json, body: #"{"quantity": 9}"#).status == 200)
            let other = json.merging([MockHeader.session: "other"]) { $1 }
            #expect(try client.request("POST", "/api/cart/items", headers: other, body: #"{"productId": 1, "quantity": 1}"#).status == 201)
        }
        let file = try String(contentsOfFile: keep + "/cartItems.json", encoding: .utf8)
        #expect(file.hasPrefix(#"{"nextId": 5, "items": ["#) && file.contains(#""quantity":9"#), "\(file)")

        try await serve { client throws in
            #expect(try ids(client.get("/api/cart/items")) == [1, 2, 3])
            #expect(try ids(client.get("/api/cart/items", headers: [MockHeader.session: "other"])) == [1, 2],
                    "named sessions start from the seed: only the default session is kept")
            let created = try client.request("POST", "/api/cart/items", headers: json, body: #"{"productId": 1, "quantity": 1}"#)
            #expect(created.header("Location") == "/api/cart/items/5", "id 4 was handed out before the restart")
        }
    }

    @Test func reset_ForgetsTheKeptItems_OnDiskToo() async throws {
        try await serve { client throws in
            _ = try client.request("POST", "/api/cart/items", headers: json, body: #"{"productId": 7, "quantity": 1}"#)
            #expect(FileManager.default.fileExists(atPath: keep + "/cartItems.json"))
            #expect(try client.request("DELETE", "/__mock/resources/cartItems").status == 204)
            #expect(!FileManager.default.fileExists(atPath: keep + "/cartItems.json"))
        }
        try await serve { client throws in #expect(try ids(client.get("/api/cart/items")) == [1, 2]) }
    }

    @Test func aBrokenKeptFile_StopsTheStart_NamingIt_AndIsLeftAsItIs() throws {
        try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
        let broken = #"{"nextId": 3, "items": [{"id": 1, "productId": "x", "quantity": 1}]}"#
        try broken.write(toFile: keep + "/cartItems.json", atomically: true, encoding: .utf8)
        do {
            _ = try MockServer(configuration: configuration)
            Issue.record("a kept file that does not fit its resource loaded")
        } catch {
            #expect(error.problems.first?.file == keep + "/cartItems.json")
            #expect(error.problems.first?.reason.contains("item 0: productId must be integer") == true, "\(error)")
        }
        #expect(try String(contentsOfFile: keep + "/cartItems.json", encoding: .utf8) == broken)

        try "{\"nextId\": 3, \"items\": [".write(toFile: keep + "/cartItems.json", atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { _ = try MockServer(configuration: configuration) }
    }

    @Test func aKeptFileThatCannotBeRead_StopsTheStart_InsteadOfBeingOverwritten() throws {
        try FileManager.default.createDirectory(atPath: keep + "/cartItems.json/inside", withIntermediateDirectories: true)
        #expect { _ = try MockServer(configuration: configuration) } throws: { "\($0)".contains("cannot be read") }
        #expect(FileManager.default.fileExists(atPath: keep + "/cartItems.json/inside"))
    }

    @Test func aChangeThatCannotBeWritten_Is500_AndIsUndone() async throws {
        try await serve { client throws in
            // A folder where the file goes: the rename over it fails, for root as for anyone.
            try FileManager.default.createDirectory(atPath: keep + "/cartItems.json/blocker", withIntermediateDirectories: true)
            let failed = try client.request("POST", "/api/cart/items", headers: json, body: #"{"productId": 7, "quantity": 1}"#)
            #expect(failed.status == 500 && failed.text.contains("the change was not kept"), "\(failed.text)")
            #expect(try ids(client.get("/api/cart/items")) == [1, 2])
            #expect(try client.request("DELETE", "/api/cart/items/1").status == 500)
            #expect(try ids(client.get("/api/cart/items")) == [1, 2])
            #expect(try FileManager.default.contentsOfDirectory(atPath: keep).filter { $0.contains(".tmp-") }.isEmpty,
                    "no temporary file is left behind")
        }
    }

    @Test func reload_ReadsTheKeptItemsAgain_AndRefusesContractsTheyNoLongerFit() async throws {
        try await serve { client throws in
            _ = try client.request("POST", "/api/cart/items", headers: json, body: #"{"productId": 7, "quantity": 1}"#)
            #expect(try client.request("POST", "/__mock/reload").status == 200)
            #expect(try ids(client.get("/api/cart/items")) == [1, 2, 3])
            try folder.writeContract("cart.json", ResourceTests.contract.replacingOccurrences(of: #""seed": "cart/items.json""#,
                                                                                          with: #""idType": "uuid""#))
            let refused = try client.request("POST", "/__mock/reload")
            #expect(refused.status == 422 && refused.text.contains("cartItems.json")
                    && refused.text.contains("id must be a UUID string"), "\(refused.text)")
            #expect(try ids(client.get("/api/cart/items")) == [1, 2, 3])
        }
    }
}
