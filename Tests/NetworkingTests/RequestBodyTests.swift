#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

struct RequestBodyTests {
    private func request(_ body: some RequestBody, url: String = "http://127.0.0.1:8080/p") throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = "POST"
        try body.apply(to: &request)
        return request
    }

    private func bodyText(_ request: URLRequest) -> String? {
        request.httpBody.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func plain_LeavesRequestUntouched() throws {
        let request = try request(PlainBody())
        #expect(request.httpBody == nil)
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/p")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test(arguments: [
        (QueryItem("q", "a b"), "q=a%20b"),
        (QueryItem("q", "a+b"), "q=a%2Bb"),
        (QueryItem("q", "a&b=c"), "q=a%26b%3Dc"),
        (QueryItem("q", "한글"), "q=%ED%95%9C%EA%B8%80"),
        (QueryItem("q", ""), "q="),
        (QueryItem("flag", nil), "flag"),
        (QueryItem("a b", "~._-"), "a%20b=~._-"),
        (QueryItem("path", "/x?y#z"), "path=%2Fx%3Fy%23z"),
    ])
    func query_PercentEncodesStrictly(item: QueryItem, expected: String) throws {
        let request = try request(QueryBody([item]))
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/p?" + expected)
        #expect(request.httpBody == nil)
    }

    @Test func query_KeepsGivenOrder_AndSortsDictionaries() throws {
        let ordered = try request(QueryBody([QueryItem("z", "1"), QueryItem("a", "2")]))
        #expect(ordered.url?.absoluteString == "http://127.0.0.1:8080/p?z=1&a=2")
        let sorted = try request(QueryBody(["z": "1", "a": "2", "m": "3"]))
        #expect(sorted.url?.absoluteString == "http://127.0.0.1:8080/p?a=2&m=3&z=1")
    }

    @Test func query_AppendsToExistingQuery() throws {
        let request = try request(QueryBody([QueryItem("b", "2")]), url: "http://h/p?a=1")
        #expect(request.url?.absoluteString == "http://h/p?a=1&b=2")
    }

    @Test func json_EncodesValue_WithContentType() throws {
        struct Payload: Encodable, Sendable { let pageNo: Int; let myAnswer: String }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let request = try request(JSONBody(Payload(pageNo: 2, myAnswer: "네"), encoder: encoder))
        #expect(bodyText(request) == #"{"my_answer":"네","page_no":2}"#)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func json_ThrowsBuildError_WhenValueCannotBeEncoded() throws {
        #expect(throws: RequestBuildError.self) { try request(JSONBody(Double.nan)) }
    }

    @Test func form_EncodesSpacesAsPlus_AndEscapesReserved() throws {
        let request = try request(FormBody([QueryItem("name", "Jörg K"), QueryItem("q", "a+b&c"), QueryItem("x", "1")]))
        #expect(bodyText(request) == "name=J%C3%B6rg+K&q=a%2Bb%26c&x=1")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func data_SendsBytesAsGiven() throws {
        let request = try request(DataBody(Data([0, 1, 255]), contentType: "application/octet-stream"))
        #expect(request.httpBody == Data([0, 1, 255]))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
    }

    @Test func multipart_IsByteExact_WithFixedBoundary() throws {
        let body = MultipartBody([
            .text(name: "note", value: "hi"),
            .json(name: "params", data: Data(#"{"a":1}"#.utf8)),
            .file(name: "images", fileName: "cup \"1\".jpg", mimeType: "image/jpeg", data: Data([0xFF, 0xD8])),
        ], boundary: "XyZ")
        let request = try request(body)
        let expected = Data("--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n".utf8)
            + Data("--XyZ\r\nContent-Disposition: form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n".utf8)
            + Data("--XyZ\r\nContent-Disposition: form-data; name=\"images\"; filename=\"cup %221%22.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + Data([0xFF, 0xD8]) + Data("\r\n--XyZ--\r\n".utf8)
        #expect(request.httpBody == expected)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=XyZ")
    }

    @Test func multipart_Throws_WhenFixedBoundaryOccursInContent() throws {
        let body = MultipartBody([.text(name: "t", value: "x--XyZ")], boundary: "XyZ")
        #expect(throws: RequestBuildError.boundaryCollision("XyZ")) { try request(body) }
    }

    @Test func multipart_DrawsBoundaryAbsentFromContent() throws {
        let request = try request(MultipartBody([.text(name: "t", value: "--Boundary-")]))
        let contentType = try #require(request.value(forHTTPHeaderField: "Content-Type"))
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        #expect(boundary.hasPrefix("Boundary-") && boundary.count > 20)
        let text = try #require(bodyText(request))
        #expect(text.hasSuffix("--\(boundary)--\r\n"))
    }
}
