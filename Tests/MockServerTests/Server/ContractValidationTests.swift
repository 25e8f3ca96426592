import Foundation
import ContractModel
import MockServer
import Testing
import TestSupport

/// Requests that break their contract get 400 (401 for auth) naming the violation, whatever the scenario.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ContractValidationTests {
    private func send(_ client: RawClient, _ method: String, _ target: String, headers: [String: String] = [:],
                      body: String = "") throws -> RawResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.utf8.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        client.send(text + "\r\n" + body)
        return try client.readResponse()
    }

    @Test(arguments: [
        ("/api/products?page_no=1", "query parameter items_per_page is missing"),
        ("/api/products?page_no=x&items_per_page=2", "query parameter page_no: \"x\" is not an integer"),
        ("/api/products?page_no=1%2&items_per_page=2", "malformed percent-escape"),
        ("/api/products?page_no=%78y&items_per_page=2", "query parameter page_no: \"xy\" is not an integer"),
        ("/api/products?page_no=x&page_no=1&items_per_page=2", "query parameter page_no: \"x\" is not an integer"),
        ("/api/products?items_per_page=2&page_no", "query parameter page_no: \"\" is not an integer"),
    ])
    func query_IsChecked(target: String, violation: String) async throws {
        try await withServer { server in
            let response = try send(RawClient(port: server.port), "GET", target,
                                    headers: ["X-Mock-Scenario": "reset"])
            #expect(response.status == 400)
            #expect(response.text.contains(violation.replacingOccurrences(of: "\"", with: "\\\"")))
            #expect(server.journal.entries().last?.violations.contains { $0.contains(violation) } == true)
        }
    }

    /// A query item's name and value are decoded before they are checked; the first item of a name counts.
    @Test(arguments: ["page_no=%31&items_per_page=2", "page%5Fno=1&items_per_page=%2B2", "page_no=1&page_no=x&items_per_page=2"])
    func query_EscapedOrRepeated_IsCheckedAsDecoded_FirstItemFirst(query: String) async throws {
        try await withServer { server in
            let response = try send(RawClient(port: server.port), "GET", "/api/products?\(query)")
            #expect(server.journal.entries().last?.violations == [])
            #expect(response.status == 200)
        }
    }

    /// An integer beyond 64 bits is refused where it arrives, naming the parameter and the range, in the query, the
    /// path and a JSON body alike: the app's `Int` could not hold it (a template would echo it as `1e+20`).
    @Test func integerBeyond64Bits_IsA400_NamingTheRange() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let range = "is not an integer in -9223372036854775808...9223372036854775807"
            let query = try send(client, "GET", "/api/products?page_no=99999999999999999999&items_per_page=20")
            #expect(query.status == 400 && query.text.contains(#"query parameter page_no: \"99999999999999999999\" "# + range),
                    "\(query.text)")
            #expect(try send(client, "GET", "/api/products?page_no=9223372036854775807&items_per_page=20").status == 200)
            let path = try send(client, "GET", "/api/products/9223372036854775808")
            #expect(path.status == 400 && path.text.contains("path parameter id") && path.text.contains(range), "\(path.text)")
            let body = try client.request("PUT", "/api/v1/question", headers: ["Authorization": "Bearer t",
                                                                                 "Content-Type": "application/json"],
                                          body: #"{"index": 99999999999999999999, "myAnswer": "a"}"#)
            #expect(body.status == 400 && body.text.contains("body field index") && body.text.contains("not an integer"),
                    "\(body.text)")
        }
    }

    /// A connection's requests are served by one event loop, which keeps what each method and target decided: a
    /// target seen before gets the same verdict, and what each request's own headers say is checked anew.
    @Test func repeatedTarget_GetsTheSameVerdict_ItsHeadersCheckedEachTime() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let mistyped = "/api/products?page_no=x&items_per_page=2"
            for _ in 0..<2 {
                #expect(try send(client, "GET", mistyped).status == 400)
                #expect(server.journal.entries().last?.violations
                    == [#"query parameter page_no: "x" is not an integer in -9223372036854775808...9223372036854775807"#])
            }
            #expect(try send(client, "GET", "/api/products?page_no=1&items_per_page=2").status == 200)
            #expect(try send(client, "GET", mistyped).status == 400)
            #expect(try send(client, "GET", "/api/products/abc").status == 400)
            #expect(try send(client, "GET", "/api/products/abc").text.contains(#"path parameter id: \"abc\" is not an integer"#))
            let today = "/api/v1/question/today"
            #expect(try send(client, "GET", today).status == 401)
            #expect(try send(client, "GET", today, headers: ["Authorization": "Bearer t"]).status == 200)
            #expect(try send(client, "GET", today).status == 401)
            // An admin path (which the memo never keeps) is answered each time it is asked.
            for _ in 0..<2 { #expect(try client.get("/__mock/health").text.contains(#""status":"ok""#)) }
        }
    }

    @Test func pathParameterType_IsChecked() async throws {
        try await withServer { server in
            let response = try RawClient(port: server.port).get("/api/products/abc")
            #expect(response.status == 400)
            #expect(response.text.contains(#"path parameter id: \"abc\" is not an integer"#))
        }
    }

    @Test func missingBearerToken_Is401_WithBearerChallenge() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let response = try client.get("/api/v1/question/today")
            #expect(response.status == 401)
            #expect(response.header("WWW-Authenticate") == "Bearer")
            #expect(try client.get("/api/v1/question/today", headers: ["Authorization": "Basic abc"]).status == 401)
            #expect(try client.get("/api/v1/question/today", headers: ["Authorization": "Bearer t"]).status == 200)
        }
    }

    @Test(arguments: [
        (["Content-Type": "text/plain"], #"{"index":1,"myAnswer":"a"}"#, "expected application/json"),
        (["Content-Type": "application/json"], "{not json", "body is not valid JSON"),
        (["Content-Type": "application/json"], "[1]", "body must be a JSON object"),
        (["Content-Type": "application/json"], #"{"index":1}"#, "body field myAnswer is missing"),
        (["Content-Type": "application/json"], #"{"index":"1","myAnswer":"a"}"#, "body field index: string is not an integer"),
    ])
    func jsonBody_IsChecked(headers: [String: String], body: String, violation: String) async throws {
        try await withServer { server in
            let response = try send(RawClient(port: server.port), "PUT", "/api/v1/question",
                                    headers: headers.merging(["Authorization": "Bearer t"]) { $1 }, body: body)
            #expect(response.status == 400)
            #expect(response.text.contains(violation))
        }
    }

    @Test func multipartBody_IsChecked_ForJSONAndFileParts() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let good = "--B\r\nContent-Disposition: form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n"
                + "{\"name\":\"x\"}\r\n--B\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.png\"\r\n"
                + "Content-Type: image/png\r\n\r\nPNG\r\n--B--\r\n"
            let headers = ["Content-Type": "multipart/form-data; boundary=B", "identifier": "v-1"]
            #expect(try send(client, "POST", "/api/products", headers: headers, body: good).status == 201)

            let noFile = good.replacingOccurrences(of: "; filename=\"a.png\"", with: "")
            let response = try send(client, "POST", "/api/products", headers: headers, body: noFile)
            #expect(response.status == 400 && response.text.contains("part images must be a file"))

            let badJSON = good.replacingOccurrences(of: "{\"name\":\"x\"}", with: "{oops")
            #expect(try send(client, "POST", "/api/products", headers: headers, body: badJSON).text
                .contains("part params is not valid JSON"))

            let unterminated = String(good.dropLast(4))
            #expect(try send(client, "POST", "/api/products", headers: headers, body: unterminated).text
                .contains("not closed"))

            let noIdentifier = try send(client, "POST", "/api/products",
                                        headers: ["Content-Type": "multipart/form-data; boundary=B"], body: good)
            #expect(noIdentifier.text.contains("header identifier is missing"))
        }
    }
}
