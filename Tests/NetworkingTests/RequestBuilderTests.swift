#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

struct TestEndpoint: Endpoint {
    var path: String = "/items"
    var method: HTTPMethod = .get
    var headers: [String: String] = [:]
    var body: any RequestBody = PlainBody()
    var timeout: TimeInterval?
}

struct RequestBuilderTests {
    let builder = RequestBuilder(environment: .local(port: 9000))

    @Test func request_JoinsBaseURLAndPath_WithMethodAndHeaders() throws {
        let request = try builder.makeRequest(for: TestEndpoint(
            path: "/api/products/7", method: .patch, headers: ["identifier": "v-1"], body: .json(["a": 1])))
        #expect(request.url?.absoluteString == "http://127.0.0.1:9000/api/products/7")
        #expect(request.httpMethod == "PATCH")
        #expect(request.value(forHTTPHeaderField: "identifier") == "v-1")
        #expect(request.httpBody == Data(#"{"a":1}"#.utf8))
    }

    @Test func request_KeepsBasePathPrefix() throws {
        let base = try #require(URL(string: "https://api.example.com/v2/"))
        let builder = RequestBuilder(environment: ServerEnvironment(name: "prod", baseURL: base))
        let request = try builder.makeRequest(for: TestEndpoint(path: "/items"))
        #expect(request.url?.absoluteString == "https://api.example.com/v2/items")
    }

    @Test func request_PercentEncodesPathCharacters() throws {
        let request = try builder.makeRequest(for: TestEndpoint(path: "/search/a b"))
        #expect(request.url?.absoluteString == "http://127.0.0.1:9000/search/a%20b")
    }

    @Test(arguments: [HTTPMethod.get, .head])
    func request_Throws_WhenBodyOnMethodWithoutBody(method: HTTPMethod) {
        #expect(throws: RequestBuildError.bodyNotAllowed(method: method.rawValue)) {
            try builder.makeRequest(for: TestEndpoint(method: method, body: .json(["a": 1])))
        }
    }

    @Test func request_AllowsQueryOnGet() throws {
        let request = try builder.makeRequest(for: TestEndpoint(body: .query(["page": "1"])))
        #expect(request.url?.absoluteString == "http://127.0.0.1:9000/items?page=1")
    }

    @Test func request_Throws_WhenPathIsNotAbsolute() {
        #expect(throws: RequestBuildError.invalidURL("items")) {
            try builder.makeRequest(for: TestEndpoint(path: "items"))
        }
    }

    @Test func request_Throws_WhenBaseURLIsNotHTTP() throws {
        let base = try #require(URL(string: "ftp://example.com"))
        let builder = RequestBuilder(environment: ServerEnvironment(name: "x", baseURL: base))
        #expect(throws: RequestBuildError.self) { try builder.makeRequest(for: TestEndpoint()) }
    }

    @Test func timeout_UsesEndpointValue_ElseDefault() throws {
        #expect(try builder.makeRequest(for: TestEndpoint(timeout: 3)).timeoutInterval == 3)
        #expect(try builder.makeRequest(for: TestEndpoint()).timeoutInterval == 30)
    }

    #if canImport(FoundationNetworking)
    @Test func timeout_IsRoundedUpToWholeSeconds_OnFoundationNetworking() throws {
        // libcurl truncates to whole seconds, so 0.5 s would time out at once.
        #expect(try builder.makeRequest(for: TestEndpoint(timeout: 0.5)).timeoutInterval == 1)
        #expect(try builder.makeRequest(for: TestEndpoint(timeout: 1.2)).timeoutInterval == 2)
    }
    #endif
}
