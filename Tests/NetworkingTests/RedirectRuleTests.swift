#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

/// Which request follows a redirect (RFC 9110 §15.4), on every platform.
struct RedirectRuleTests {
    private func request(_ method: String, body: String? = nil, url: String = "http://127.0.0.1:8080/old") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        return request
    }

    private func response(_ status: Int, location: String?) -> HTTPURLResponse {
        HTTPURLResponse(url: URL(string: "http://127.0.0.1:8080/old")!, statusCode: status, httpVersion: "HTTP/1.1",
                        headerFields: location.map { ["Location": $0] } ?? [:])!
    }

    @Test(arguments: [307, 308])
    func temporaryAndPermanent_KeepMethodAndBody(status: Int) throws {
        for method in ["POST", "PUT", "PATCH", "DELETE"] {
            let next = try #require(RedirectRule.follow(response(status, location: "/new"), from: request(method, body: #"{"a":1}"#)))
            #expect(next.url?.absoluteString == "http://127.0.0.1:8080/new")
            #expect(next.httpMethod == method)
            #expect(next.httpBody == Data(#"{"a":1}"#.utf8))
            #expect(next.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(next.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        }
    }

    @Test(arguments: [301, 302])
    func movedAndFound_TurnPostIntoGet_ButKeepOtherMethods(status: Int) throws {
        let post = try #require(RedirectRule.follow(response(status, location: "/new"), from: request("POST", body: "{}")))
        #expect(post.httpMethod == "GET" && post.httpBody == nil && post.value(forHTTPHeaderField: "Content-Type") == nil)
        let put = try #require(RedirectRule.follow(response(status, location: "/new"), from: request("PUT", body: "{}")))
        #expect(put.httpMethod == "PUT" && put.httpBody == Data("{}".utf8))
    }

    @Test func seeOther_TurnsEverythingButHeadIntoGet() throws {
        for method in ["POST", "PUT", "DELETE", "GET"] {
            let next = try #require(RedirectRule.follow(response(303, location: "/new"), from: request(method, body: "{}")))
            #expect(next.httpMethod == "GET" && next.httpBody == nil)
        }
        let head = try #require(RedirectRule.follow(response(303, location: "/new"), from: request("HEAD")))
        #expect(head.httpMethod == "HEAD")
    }

    @Test func anotherOrigin_GetsNoCredentials() throws {
        let next = try #require(RedirectRule.follow(response(307, location: "http://example.com/new"),
                                                    from: request("POST", body: "{}")))
        #expect(next.url?.host == "example.com")
        #expect(next.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(next.httpBody == Data("{}".utf8))
    }

    @Test func notARedirect_OrNoUsableLocation_IsReturnedAsItIs() {
        #expect(RedirectRule.follow(response(304, location: "/new"), from: request("GET")) == nil)
        #expect(RedirectRule.follow(response(300, location: "/new"), from: request("GET")) == nil)
        #expect(RedirectRule.follow(response(302, location: nil), from: request("GET")) == nil)
        #expect(RedirectRule.follow(response(302, location: "ftp://h/x"), from: request("GET")) == nil)
    }
}
