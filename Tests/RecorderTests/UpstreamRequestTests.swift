import HTTPCore
@testable import Recorder
import Testing

/// The bytes the proxy sends the target for a client's request, exactly: the target's base path, `Host` naming the
/// target, end-to-end fields as received, `Via` with this hop, and the body framed by `Content-Length`.
@Suite(.timeLimit(.minutes(2)))
struct UpstreamRequestTests {
    private func text(_ request: HTTPRequest, recording: Bool = false, token: String? = nil) throws -> String {
        let target = try UpstreamTarget(parsing: "http://backend.test:8080/api")
        return String(decoding: UpstreamRequest.bytes(for: request, target: target, recording: recording, bridgeToken: token),
                      as: UTF8.self)
    }

    @Test func aPost_GoesWithItsEndToEndFields_HostVia_AndItsLength() throws {
        var headers = HTTPHeaders()
        for (name, value) in [("Host", "127.0.0.1:9000"), ("Connection", "keep-alive, X-Hop"), ("X-Hop", "1"),
                              ("Keep-Alive", "timeout=5"), ("Content-Type", "application/json"), ("Expect", "100-continue"),
                              ("Content-Length", "2"), ("Via", "1.0 client-proxy"), ("Accept-Encoding", "gzip"),
                              ("Authorization", "Bearer t")] {
            headers.append(name: name, value: value)
        }
        let request = HTTPRequest(method: .post, target: "/items?page=2", headers: headers, body: Array("{}".utf8))
        #expect(try text(request) == "POST /api/items?page=2 HTTP/1.1\r\nHost: backend.test:8080\r\n"
            + "Content-Type: application/json\r\nAccept-Encoding: gzip\r\nAuthorization: Bearer t\r\n"
            + "Via: 1.0 client-proxy, 1.1 mock-server\r\nContent-Length: 2\r\n\r\n{}")
        #expect(try text(request, recording: true).contains("\r\nAuthorization: Bearer t\r\nAccept-Encoding: identity\r\n"))
    }

    /// The target's base path joined with the request's path and query; a target without one sends the path as is;
    /// an `https://` target's bridge joins the base path itself.
    @Test func theRequestLine_JoinsTheBasePath_WithThePathAndQuery() throws {
        func line(_ base: String, _ requestTarget: String) throws -> String {
            let bytes = UpstreamRequest.bytes(for: HTTPRequest(method: .get, target: requestTarget),
                                              target: try UpstreamTarget(parsing: base))
            return String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")[0]
        }
        #expect(try line("http://h:8081/api/", "/v1/items?a=1&b=%20") == "GET /api/v1/items?a=1&b=%20 HTTP/1.1")
        #expect(try line("http://h", "/x") == "GET /x HTTP/1.1")
        #expect(try line("http://h/api", "/x?") == "GET /api/x? HTTP/1.1")
        #expect(try line("https://h/api", "/x?q=1") == "GET /x?q=1 HTTP/1.1")
    }

    @Test func aGet_HasNoLength_AndTheBridgeGetsItsToken() throws {
        let request = HTTPRequest(method: .get, target: "/items")
        #expect(try text(request) == "GET /api/items HTTP/1.1\r\nHost: backend.test:8080\r\nVia: 1.1 mock-server\r\n\r\n")
        #expect(try text(request, token: "abc").contains("\r\n\(BridgeFailure.tokenField): abc\r\n"))
    }
}
