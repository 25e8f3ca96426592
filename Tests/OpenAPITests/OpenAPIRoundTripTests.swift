import ContractModel
import Foundation
@testable import OpenAPI
import TestSupport
import Testing

/// Export, then import what was exported: the same contracts, endpoint by endpoint and scenario by scenario,
/// and the same fixtures.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct OpenAPIRoundTripTests {
    /// Exports the bundled contracts to a file and imports it into scratch folders.
    private func roundTrip(_ transform: (JSONValue) -> JSONValue = { $0 }) throws
        -> (original: ContractSet, imported: ContractSet, scratch: ScratchContracts, outcome: OpenAPIImport.Outcome)
    {
        let original = try OpenAPITestFiles.bundledContracts()
        let document = transform(OpenAPIExporter(contracts: original).document())
        let file = try OpenAPITestFiles.temporaryDocument("exported.json", String(decoding: document.prettyPrinted(), as: UTF8.self))
        let (scratch, outcome) = try OpenAPITestFiles.importing(file)
        let imported = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        return (original, imported, scratch, outcome)
    }

    @Test func exportThenImport_GivesTheBundledContractsBack_EndpointByEndpoint() throws {
        // GIVEN the bundled contracts, exported and imported again
        let (original, imported, _, outcome) = try roundTrip()

        // THEN every contract, resource, endpoint and scenario is the same
        #expect(imported.contracts.count == original.contracts.count)
        for contract in original.contracts {
            let twin = try #require(imported.contracts.first { $0.domain == contract.domain }, "\(contract.domain)")
            let expected = ContractEquivalence.lines(of: contract)
            let found = ContractEquivalence.lines(of: twin)
            #expect(found.count == expected.count, "\(contract.domain)")
            for (want, got) in zip(expected, found) { #expect(got == want) }
            // The request rules too (`when`, carried in x-mock), compared as the model.
            #expect(twin.endpoints.map { $0.scenarios.map(\.when) } == contract.endpoints.map { $0.scenarios.map(\.when) })
            #expect(contract.endpoints.contains { $0.scenarios.contains { !$0.when.isEmpty } }
                || contract.domain == "health", "the bundled products and questions use when")
        }
        #expect(outcome.report.skipped.isEmpty, "\(outcome.report.skipped)")
    }

    /// Network conditions written in a contract (a rate limit, latency, bandwidth, dribble) survive the trip.
    @Test func exportThenImport_KeepsNetworkConditions() throws {
        let contracts = try ScratchContracts(contracts: [("slow.json", #"""
            {"domain": "slow", "endpoints": [{"id": "slow", "method": "GET", "path": "/slow",
              "rateLimit": {"limit": 5, "windowSeconds": 10, "per": "global", "retryAfter": "date"},
              "scenarios": [
                {"name": "success", "status": 200, "body": "ok.json", "latency": "lognormal:80:0.5", "bandwidth": "3g", "expect": "success"},
                {"name": "pieces", "status": 200, "body": "ok.json", "latency": "100-200", "dribble": {"pieces": 3, "overMs": 900, "chunked": true}, "expect": "success"},
                {"name": "custom", "status": 200, "body": "ok.json", "bandwidth": "20000", "expect": "success"}]}]}
            """#)], fixtures: [("ok.json", #"{"ok": true}"#)])
        let original = try ContractLoader.load(contractsDirectory: contracts.contracts, fixturesDirectory: contracts.fixtures)
        let document = OpenAPIExporter(contracts: original).document()
        let file = try OpenAPITestFiles.temporaryDocument("slow.json", String(decoding: document.prettyPrinted(), as: UTF8.self))
        let (scratch, _) = try OpenAPITestFiles.importing(file)
        let imported = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        let expected = original.contracts.flatMap(\.endpoints).flatMap(ContractEquivalence.lines(of:))
        let found = imported.contracts.flatMap(\.endpoints).flatMap(ContractEquivalence.lines(of:))
        #expect(found == expected)
        #expect(expected.contains { $0.contains("rateLimit RateLimit(limit: 5") }, "the comparison sees the rate limit")
    }

    /// Streams: an event stream is documented as `text/event-stream` with its events as the example, a WebSocket
    /// endpoint as a 101 with `websocket` in its x-mock; both come back the same.
    @Test func exportThenImport_KeepsStreamsAndDocumentsThem() throws {
        let contracts = try ScratchContracts(contracts: [("live.json", #"""
            {"domain": "live", "endpoints": [
              {"id": "ticks", "method": "GET", "path": "/ticks", "scenarios": [
                {"name": "success", "expect": "success", "events": [{"data": "one", "id": "1"}, {"data": "two", "delayMs": 50}],
                 "afterLast": "reset"}]},
              {"id": "chat", "method": "GET", "path": "/chat", "websocket": true, "subprotocols": ["chat.v1"], "scenarios": [
                {"name": "success", "expect": "success", "onConnect": [{"text": "hi"}], "echo": true},
                {"name": "refused", "status": 401, "expect": "requestErr"}]}]}
            """#)], fixtures: [])
        let original = try ContractLoader.load(contractsDirectory: contracts.contracts, fixturesDirectory: contracts.fixtures)
        let document = OpenAPIExporter(contracts: original).document()
        let ticks = try #require(document["paths"]?["/ticks"]?["get"]?["responses"]?["200"]?["content"]?["text/event-stream"])
        #expect(ticks["examples"]?["success"]?["value"]?.stringValue == "id: 1\ndata: one\n\ndata: two\n\n")
        let chat = try #require(document["paths"]?["/chat"]?["get"])
        #expect(chat["x-mock"]?["websocket"]?.boolValue == true)
        #expect(chat["x-mock"]?["subprotocols"] == .strings(["chat.v1"]))
        #expect(chat["responses"]?["101"]?["description"]?.stringValue?.contains("WebSocket") == true)
        #expect(chat["responses"]?["426"] != nil)
        let file = try OpenAPITestFiles.temporaryDocument("live.json", String(decoding: document.prettyPrinted(), as: UTF8.self))
        let (scratch, outcome) = try OpenAPITestFiles.importing(file)
        let imported = try ContractLoader.load(contractsDirectory: scratch.contracts, fixturesDirectory: scratch.fixtures)
        #expect(imported.contracts.flatMap(\.endpoints) == original.contracts.flatMap(\.endpoints).map { endpoint in
            var same = endpoint
            same.description = imported.contracts.flatMap(\.endpoints).first { $0.id == endpoint.id }?.description
            return same
        })
        #expect(outcome.report.skipped.isEmpty, "\(outcome.report.skipped)")
    }

    @Test func exportThenImport_WritesEveryFixtureAndSeedBack() throws {
        let (original, imported, scratch, _) = try roundTrip()
        var files: Set<String> = []
        for endpoint in original.endpoints {
            for scenario in endpoint.scenarios {
                files.formUnion(FixtureExamples.files(of: scenario, endpoint: endpoint, root: original.fixturesDirectory))
            }
        }
        files.formUnion(original.contracts.flatMap(\.resources).compactMap(\.seedFile))
        #expect(files.count > 30)
        for file in files.sorted() {
            #expect(ContractEquivalence.fixture(file, in: scratch.fixtures)
                    == ContractEquivalence.fixture(file, in: original.fixturesDirectory), "\(file)")
        }
        #expect(imported.seeds == original.seeds)
    }

    /// Without the `x-mock` extensions a document still carries the requests: parameters, bodies and auth
    /// come back from OpenAPI's own objects.
    @Test func exportThenImport_WithoutExtensions_KeepsEveryRequestRequirement() throws {
        let (original, imported, _, _) = try roundTrip(Self.withoutExtensions)
        for endpoint in original.endpoints where endpoint.resource == nil {
            let twin = try #require(imported.endpoints.first { $0.id == endpoint.id }, "\(endpoint.id)")
            #expect(twin.method == endpoint.method && twin.path == endpoint.path)
            #expect(twin.request.query == endpoint.request.query, "\(endpoint.id)")
            #expect(twin.request.headers == endpoint.request.headers, "\(endpoint.id)")
            #expect(twin.request.pathParams == endpoint.request.pathParams, "\(endpoint.id)")
            #expect(twin.request.bearerAuth == endpoint.request.bearerAuth, "\(endpoint.id)")
            #expect(twin.request.body?.kind == endpoint.request.body?.kind, "\(endpoint.id)")
            #expect(twin.request.body?.fields == endpoint.request.body?.fields, "\(endpoint.id)")
            // One scenario per documented status (and named example), the first a success.
            #expect(twin.scenarios.first?.expect == .success, "\(endpoint.id)")
        }
        // The resources' operations come back as ordinary endpoints with their store's statuses.
        let list = try #require(imported.endpoints.first { $0.id == "cartItems.list" })
        #expect(list.scenarios.first?.status == 200 && list.request.bearerAuth)
    }

    /// What an import made from a test document survives export and import again unchanged.
    @Test(arguments: ["petstore.json", "paginated.json", "polymorphic.json", "inventory.yaml", "fastapi/fastapi.json"])
    func importedDocument_ExportedAndImportedAgain_IsTheSame(document: String) throws {
        let (first, _) = try OpenAPITestFiles.importing(OpenAPITestFiles.documents + "/" + document)
        let imported = try ContractLoader.load(contractsDirectory: first.contracts, fixturesDirectory: first.fixtures)
        let exported = OpenAPIExporter(contracts: imported).document().prettyPrinted()
        let file = try OpenAPITestFiles.temporaryDocument("again.json", String(decoding: exported, as: UTF8.self))
        let (second, _) = try OpenAPITestFiles.importing(file)
        let again = try ContractLoader.load(contractsDirectory: second.contracts, fixturesDirectory: second.fixtures)
        #expect(again.contracts.flatMap(ContractEquivalence.lines(of:)) == imported.contracts.flatMap(ContractEquivalence.lines(of:)))
        for endpoint in imported.endpoints {
            for scenario in endpoint.scenarios {
                for file in FixtureExamples.files(of: scenario, endpoint: endpoint, root: first.fixtures) {
                    #expect(ContractEquivalence.fixture(file, in: second.fixtures)
                            == ContractEquivalence.fixture(file, in: first.fixtures), "\(file)")
                }
            }
        }
    }

    /// Every `x-mock` key removed, wherever it is.
    static func withoutExtensions(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.filter { !$0.key.hasPrefix("x-mock") }.mapValues(withoutExtensions))
        case .array(let items):
            .array(items.map(withoutExtensions))
        default:
            value
        }
    }
}
