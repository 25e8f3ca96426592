import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPCore
import Testing
@testable import mock_server_tls

@Suite(.timeLimit(.minutes(2)))
struct BridgeTranslationTests {
    private static let target = BridgeTarget(parsing: "https://api.example.com:8443/v1/")

    /// A request as HTTPCore's parser reads it from the bytes a client sends.
    private static func request(_ method: String, _ target: String, headers: [(String, String)] = [],
                                body: String = "", sourceLocation: SourceLocation = #_sourceLocation) -> HTTPRequest {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0 == "Host" }) { head += "Host: 127.0.0.1\r\n" }
        for (name, value) in headers where name != "Content-Length" { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.utf8.count)\r\n" }
        guard case .request(let request, _) = HTTPRequestParser.parseAll(Array((head + "\r\n" + body).utf8)) else {
            Issue.record("unparsable request", sourceLocation: sourceLocation)
            return HTTPRequest.unreadable
        }
        return request
    }

    @Test func target_KeepsTheOriginAndBasePath_AndRefusesAnythingButHTTPS() {
        #expect(Self.target?.origin == "https://api.example.com:8443")
        #expect(Self.target?.basePath == "/v1")
        #expect(Self.target?.url(for: "/items?q=a+b") == "https://api.example.com:8443/v1/items?q=a+b")
        #expect(BridgeTarget(parsing: "http://api.example.com") == nil)
        #expect(BridgeTarget(parsing: "https://user@api.example.com") == nil)
        #expect(BridgeTarget(parsing: "https://api.example.com/?x=1") == nil)
    }

    @Test func urlRequest_KeepsMethodURLFieldsAndBody_AndAsksForIdentity() throws {
        // GIVEN a DELETE with a body, a Host, framing and hop-by-hop fields, and a field named by Connection
        let request = Self.request("DELETE", "/items/3?force=1", headers: [
            ("Host", "127.0.0.1:5000"), ("Content-Length", "7"), ("Connection", "keep-alive, X-Hop"), ("X-Hop", "1"),
            ("Authorization", "Bearer t"), ("Content-Type", "application/json"), ("Expect", "100-continue"),
            ("TE", "trailers"), ("Via", "1.1 mock-server"),
        ], body: "{\"a\":1}")
        // WHEN it becomes a URLRequest
        let urlRequest = try BridgeTranslation.urlRequest(for: request, target: try #require(Self.target), timeout: 5)
        // THEN only end-to-end fields pass, the body goes with the DELETE, and identity is asked for
        #expect(urlRequest.httpMethod == "DELETE")
        #expect(urlRequest.url?.absoluteString == "https://api.example.com:8443/v1/items/3?force=1")
        #expect(urlRequest.httpBody == Data("{\"a\":1}".utf8))
        #expect(urlRequest.timeoutInterval == 5)
        #expect(urlRequest.cachePolicy == .reloadIgnoringLocalAndRemoteCacheData)
        #expect(urlRequest.httpShouldHandleCookies == false)
        let names = Set((urlRequest.allHTTPHeaderFields ?? [:]).keys.map { $0.lowercased() })
        #expect(names == ["authorization", "content-type", "via", "accept-encoding"])
        #expect(urlRequest.value(forHTTPHeaderField: "Accept-Encoding") == "identity")
    }

    @Test func requestFields_KeepTheClientsAcceptEncoding_WhenItSetOne() {
        let fields = BridgeTranslation.requestFields([("Accept-Encoding", "gzip"), ("Cookie", "a=1")])
        #expect(fields.map(\.name) == ["Accept-Encoding", "Cookie"])
        #expect(fields.first?.value == "gzip")
    }

    @Test func urlRequest_IsRefused_WhenAGetHasABody() {
        #expect(throws: BridgeTranslation.Refusal.self) {
            let target = try #require(Self.target)
            let request = Self.request("GET", "/x", body: "b")
            return try BridgeTranslation.urlRequest(for: request, target: target, timeout: 5)
        }
    }

    @Test func responseFields_DropFramingAndHopByHop_AndTheCodingCurlDecoded() {
        // GIVEN fields as URLSession reports a gzip, chunked response
        let fields = BridgeTranslation.responseFields([
            ("Transfer-Encoding", "chunked"), ("Content-Length", "45"), ("Content-Encoding", "gzip"),
            ("Set-Cookie", "s=1"), ("Location", "/next"), ("Keep-Alive", "timeout=5"), ("Date", "x"),
        ])
        // THEN the decoded body is described truthfully and the server frames it itself
        #expect(fields.map(\.name) == ["Location", "Set-Cookie"])
    }

    @Test func responseFields_KeepContentEncoding_WhenCurlDidNotDecodeIt() {
        let fields = BridgeTranslation.responseFields([("Content-Encoding", "identity"), ("Content-Length", "3")])
        #expect(fields.map(\.name) == ["Content-Encoding"])
    }

    @Test func announcedLength_IsTheTargets_UnlessCurlDecodedACoding() {
        #expect(BridgeTranslation.announcedLength([("Content-Length", " 42 ")]) == 42)
        #expect(BridgeTranslation.announcedLength([("Content-Length", "42"), ("Content-Encoding", "gzip")]) == nil)
        #expect(BridgeTranslation.announcedLength([("Content-Type", "text/plain")]) == nil)
    }

    @Test(arguments: [
        (URLError.Code.serverCertificateUntrusted, "TLS: certificate not trusted"),
        (.serverCertificateHasUnknownRoot, "TLS: certificate not trusted"),
        (.serverCertificateHasBadDate, "TLS: certificate expired"),
        (.secureConnectionFailed, "TLS: handshake failed"),
        (.clientCertificateRequired, "TLS: the server wants a client certificate"),
        (.cannotFindHost, "DNS:"),
        (.cannotConnectToHost, "connection refused"),
        (.timedOut, "timeout: no answer within 7 s"),
    ])
    func reason_NamesTheFailure_ForEachURLError(code: URLError.Code, reason: String) {
        #expect(BridgeTranslation.reason(for: URLError(code), timeout: 7).hasPrefix(reason))
    }

    @Test(arguments: [
        ("SSL certificate problem: unable to get local issuer certificate", "TLS: certificate not trusted"),
        ("SSL certificate problem: self-signed certificate", "TLS: certificate not trusted"),
        ("SSL certificate problem: certificate has expired", "TLS: certificate expired"),
        ("SSL: no alternative certificate subject name matches target host name 'x'", "TLS: certificate does not name"),
        ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to x:443", "TLS: handshake failed"),
    ])
    func reason_ReadsCurlsTLSMessage_WhenURLSessionReportsUnknown(message: String, reason: String) {
        // GIVEN the URLError -1 that FoundationNetworking reports for curl's TLS failures
        let error = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
        // THEN the reason names TLS and keeps curl's words
        let text = BridgeTranslation.reason(for: error, timeout: 5)
        #expect(text.hasPrefix(reason) && text.contains(message), "\(text)")
    }

    @Test func reason_IsNotTLS_ForAConnectionReset() {
        let message = "Recv failure: Connection reset by peer"
        let error = URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: message])
        #expect(BridgeTranslation.reason(for: error, timeout: 5).hasPrefix("connection reset"))
    }
}
