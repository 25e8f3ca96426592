#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

/// `response(for:)` keeps the status and headers of every response, whatever the result's case.
struct ResponseMetadataTests {
    struct Item: Decodable, Equatable, Sendable { let id: Int }

    private func client(_ dispatcher: OfflineDispatcher) -> APIClient {
        APIClient(environment: .local(port: 9), dispatcher: dispatcher)
    }

    @Test func success_KeepsStatusHeadersAndURL() async {
        let dispatcher = scripted([answer(200, headers: ["ETag": #""v1""#, "X-Total-Count": "42"], body: #"{"id":1}"#)])
        let response = await client(dispatcher).response(for: TestEndpoint(), decoding: .json(Item.self))
        #expect(response.value == Item(id: 1))
        #expect(response.status == 200)
        #expect(response.headers["etag"] == #""v1""#)
        #expect(response.headers["x-total-count"] == "42")
        #expect(response.url?.path == "/items")
        #expect(response.attempts == 1)
    }

    @Test func requestErrAndServerErr_KeepTheirHeaders() async {
        let tooMany = await client(scripted([answer(429, headers: ["Retry-After": "7"], body: "slow down")]))
            .response(for: TestEndpoint(), decoding: .json(Item.self))
        let unavailable = await client(scripted([answer(503, headers: ["Retry-After": "120"])]))
            .response(for: TestEndpoint(), decoding: .json(Item.self))
        guard case .requestErr(429, "slow down") = tooMany.result else { Issue.record("got \(tooMany.result)"); return }
        guard case .serverErr(503) = unavailable.result else { Issue.record("got \(unavailable.result)"); return }
        #expect(tooMany.headers["Retry-After"] == "7")
        #expect(unavailable.headers["RETRY-AFTER"] == "120")
    }

    @Test func networkFail_HasNoStatusOrHeaders_AndBuildFailureNoAttempt() async {
        let refused = await client(OfflineDispatcher(routes: [:])).response(for: TestEndpoint(), decoding: .empty)
        #expect(refused.status == nil && refused.headers.isEmpty && refused.attempts == 1)
        let unbuildable = await client(OfflineDispatcher(routes: [:]))
            .response(for: TestEndpoint(method: .get, body: .json(["a": 1])), decoding: .empty)
        #expect(unbuildable.attempts == 0 && unbuildable.result.caseName == "networkFail")
    }

    @Test func headers_LookUpWithoutCase_AndIterateSorted() {
        let headers: HTTPHeaders = ["Content-Type": "application/json", "X-B": "2", "x-a": "1"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers.map(\.name) == ["Content-Type", "x-a", "X-B"])
        #expect(headers.count == 3 && !headers.isEmpty)
    }
}
