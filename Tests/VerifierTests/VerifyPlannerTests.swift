import ContractModel
import Testing
import TestSupport
@testable import Verifier

/// Which requests verify builds from a contract, and why it builds none: pure, over a scratch folder.
@Suite struct VerifyPlannerTests {
    static let contract = """
        {"domain": "shop", "endpoints": [
          {"id": "item", "method": "GET", "path": "/api/items/{id}", "request": {"auth": "bearer"},
           "scenarios": [
             {"name": "success", "status": 200, "body": "items/{id}.json", "expect": "success"},
             {"name": "missing", "status": 404, "body": "missing.json", "expect": "requestErr", "verifyStatus": "exact",
              "verify": {"pathParams": {"id": "999"}, "headers": {"Authorization": ""}}},
             {"name": "reset", "fault": "connection_reset", "expect": "networkFail"}]},
          {"id": "list", "method": "GET", "path": "/api/items",
           "request": {"query": {"page": "integer", "q": "string?"}},
           "scenarios": [{"name": "success", "status": 200, "body": "list.json", "expect": "success"}]},
          {"id": "search", "method": "GET", "path": "/api/search",
           "verify": {"query": {"q": "pen"}, "headers": {"X-Key": "${SHOP_KEY}"}},
           "scenarios": [{"name": "success", "status": 200, "body": "list.json", "expect": "success"}]},
          {"id": "create", "method": "POST", "path": "/api/items",
           "request": {"body": {"type": "json", "fields": {"name": "string"}}},
           "verify": {"body": {"name": "Cup"}},
           "scenarios": [{"name": "created", "status": 201, "body": "items/1.json", "expect": "success"}]}
        ]}
        """

    private func cases(_ options: VerifyOptions = VerifyOptions(), environment: [String: String] = [:]) throws
        -> [String: VerifyCase] {
        let folders = try ScratchContracts(contracts: [("shop.json", Self.contract)], fixtures: [
            ("items/7.json", #"{"id":7}"#), ("items/1.json", #"{"id":1}"#), ("missing.json", #"{"error":"no"}"#),
            ("list.json", #"{"items":[]}"#),
        ])
        let contracts = try ContractLoader.load(contractsDirectory: folders.contracts, fixturesDirectory: folders.fixtures)
        let planner = VerifyPlanner(contracts: contracts, options: options, environment: environment,
                                    listFolder: { folder in folder == "items" ? ["1.json", "7.json"] : [] },
                                    readFixture: { path in
                                        let files = ["items/1.json": #"{"id":1}"#, "items/7.json": #"{"id":7}"#,
                                                     "missing.json": #"{"error":"no"}"#, "list.json": #"{"items":[]}"#]
                                        return files[path].map { Array($0.utf8) }
                                    })
        return Dictionary(uniqueKeysWithValues: planner.cases().map { ("\($0.endpoint).\($0.scenario)", $0) })
    }

    private func request(_ item: VerifyCase?) -> VerifyRequest? {
        if case .send(let request, _)? = item?.plan { request } else { nil }
    }

    private func reason(_ item: VerifyCase?) -> String? {
        if case .skip(let reason, _)? = item?.plan { reason } else { nil }
    }

    @Test func pathValues_ComeFromTheFixtureFiles_AndTheScenariosVerifyBlock() throws {
        var options = VerifyOptions()
        options.headers = [("Authorization", "Bearer tok")]
        let cases = try cases(options, environment: ["SHOP_KEY": "k-1"])
        #expect(request(cases["item.success"])?.target == "/api/items/1")
        let missing = try #require(request(cases["item.missing"]))
        #expect(missing.target == "/api/items/999")
        #expect(!missing.headers.contains { $0.name == "Authorization" }, "an empty value sends none")
        if case .send(_, let expectation)? = cases["item.missing"]?.plan {
            #expect(expectation.exactStatus == 404 && expectation.accepts(status: 404) && !expectation.accepts(status: 410))
        }
        #expect(reason(cases["item.reset"])?.contains("fault") == true)
        let search = try #require(request(cases["search.success"]))
        #expect(search.target == "/api/search?q=pen" && search.headers.contains { $0 == ("X-Key", "k-1") })
    }

    @Test func whatCannotBeBuilt_OrSent_SaysWhy() throws {
        let cases = try cases()
        #expect(reason(cases["item.success"]) == "needs a bearer token: pass --header 'Authorization: Bearer $TOKEN'")
        #expect(reason(cases["list.success"])?.contains("the query parameter page is required") == true)
        #expect(reason(cases["search.success"]) == "header X-Key needs the environment variable $SHOP_KEY")
        #expect(reason(cases["create.created"]) == "POST is sent only with --allow-writes")
    }

    @Test func aHeaderFlagsVariable_ComesFromTheEnvironment_SoNoTokenIsOnTheCommandLine() throws {
        var options = VerifyOptions()
        options.headers = [("Authorization", "Bearer ${SHOP_TOKEN}")]
        let item = try #require(request(try cases(options, environment: ["SHOP_TOKEN": "t-9"])["item.success"]))
        #expect(item.headers.contains { $0 == ("Authorization", "Bearer t-9") })
        #expect(reason(try cases(options)["item.success"]) == "--header Authorization needs the environment variable $SHOP_TOKEN")
    }

    @Test func aHeaderFlag_StandsInForAMissingVariable() throws {
        var options = VerifyOptions()
        options.headers = [("X-Key", "from-the-flag")]
        let search = try #require(request(try cases(options)["search.success"]))
        #expect(search.headers.filter { $0.name == "X-Key" }.map(\.value) == ["from-the-flag"])
    }

    @Test func writes_AreSentWithAllowWrites_WithTheirJSONBody() throws {
        var options = VerifyOptions()
        options.allowWrites = true
        let create = try #require(request(try cases(options)["create.created"]))
        #expect(create.method == "POST" && String(decoding: create.body, as: UTF8.self) == #"{"name":"Cup"}"#)
        #expect(create.headers.contains { $0 == ("Content-Type", "application/json") })
    }

    @Test func onlyNarrowsTheRun() throws {
        var options = VerifyOptions()
        options.only = ["list"]
        #expect(try cases(options).keys.sorted() == ["list.success"])
    }

    @Test func environmentValues_AreExpanded_AndAMissingOneIsNamed() {
        #expect(VerifyPlanner.expand("Bearer ${T}", environment: ["T": "x"]) == .success("Bearer x"))
        #expect(VerifyPlanner.expand("${A}-${B}", environment: ["A": "1"]).failureName == "$B")
        #expect(VerifyPlanner.encoded("a b/ü") == "a%20b%2F%C3%BC")
    }
}

private extension Result where Success == String, Failure == VerifyPlanner.MissingVariable {
    var failureName: String? { if case .failure(let missing) = self { missing.name } else { nil } }
}


