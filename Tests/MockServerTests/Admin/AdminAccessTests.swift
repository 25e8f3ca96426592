@testable import HTTPCore
@testable import MockServer
import Testing
import TestSupport

/// The admin API answers the person at the keyboard only: not a DNS-rebinding page, not another web
/// page, not a device on the network without the token. Over real sockets.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct AdminAccessTests {
    private func status(_ client: RawClient, _ target: String = "/__mock/journal", headers: [String: String]) throws -> Int {
        var text = "GET \(target) HTTP/1.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        client.send(text + "\r\n")
        return try client.readResponse().status
    }

    @Test(arguments: [
        ("attacker.example", 403), ("attacker.example:8080", 403), ("127.0.0.1.nip.io", 403), ("localhost.evil", 403),
        // A name that merely ends in "localhost" is another machine's; only `*.localhost` is this one's.
        ("evillocalhost", 403), ("evillocalhost:8080", 403), ("my-mac.local.evil", 403),
        ("127.0.0.1", 200), ("127.0.0.2:9", 200), ("localhost", 200), ("LOCALHOST:1", 200), ("app.localhost", 200),
        ("[::1]:8080", 200), ("my-mac.local", 200), ("my-mac.local:8080", 200),
        // Malformed values a browser never sends, refused rather than read generously.
        ("[::1]x", 403), ("[::1].evil.com", 403), ("localhost:80@evil", 403), ("localhost:8080, evil.com", 403),
        ("localhost:abc", 403), ("::1", 403), ("", 403),
    ])
    func host_MustNameThisMachine(host: String, expected: Int) async throws {
        try await withServer(configure: { $0.allowedHosts = ["My-Mac.local:8080"] }) { server in
            let client = try RawClient(port: server.port)
            #expect(try status(client, headers: ["Host": host]) == expected)
            // Mock endpoints answer any Host: a phone on the LAN uses the Mac's address.
            #expect(try status(client, "/healthChecker", headers: ["Host": host]) == 200)
        }
    }

    @Test func otherWebPages_AreRefused_ForEveryMethod() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            let own = "127.0.0.1:\(server.port)"
            #expect(try status(client, headers: ["Host": own, "Origin": "http://\(own)"]) == 200)
            #expect(try status(client, headers: ["Host": own, "Origin": "http://evil.example"]) == 403)
            #expect(try status(client, headers: ["Host": own, "Origin": "null"]) == 403)
            // An origin that only begins with the server's own is another page's.
            #expect(try status(client, headers: ["Host": "localhost", "Origin": "http://localhost.evil.example"]) == 403)
            #expect(try status(client, headers: ["Host": own, "Origin": "http://\(own)0"]) == 403)
            #expect(try status(client, headers: ["Host": "localhost", "Origin": "http://localhost"]) == 200)
            client.send("DELETE /__mock/journal HTTP/1.1\r\nHost: \(own)\r\nOrigin: https://evil.example\r\n\r\n")
            let refused = try client.readResponse()
            #expect(refused.status == 403 && refused.text.contains("refuses requests from other web pages"))
        }
    }

    @Test func adminToken_IsRequired_WhenGiven() async throws {
        try await withServer(configure: { $0.adminToken = "s3cret" }) { server in
            let client = try RawClient(port: server.port)
            #expect(server.adminToken == "s3cret")
            #expect(try status(client, headers: ["Host": "localhost"]) == 401)
            #expect(try status(client, headers: ["Host": "localhost", "X-Mock-Admin-Token": "s3cre"]) == 401)
            #expect(try status(client, headers: ["Host": "localhost", "X-Mock-Admin-Token": "s3cret"]) == 200)
        }
    }

    @Test func exposedServer_MakesUpAToken_AndDemandsItFromPeersBeyondLoopback() async throws {
        try await withServer(configure: { $0.host = "0.0.0.0" }) { server in
            let token = try #require(server.adminToken)
            #expect(token.count == 32 && token.allSatisfy(\.isHexDigit))
            let loopback = try RawClient(port: server.port)
            #expect(try status(loopback, headers: ["Host": "127.0.0.1"]) == 200)

            // A peer on the network: this machine's own interface address, which is not loopback.
            guard let address = POSIX.interfaceAddresses().first(where: { !$0.contains(":") }) else { return }
            let peer = try RawClient(port: server.port, host: address)
            #expect(try status(peer, headers: ["Host": address]) == 401)
            #expect(try status(peer, headers: ["Host": address, "X-Mock-Admin-Token": token]) == 200)
            #expect(try status(peer, headers: ["Host": "rebound.example", "X-Mock-Admin-Token": token]) == 403)
        }
    }

    @Test func loopbackServer_HasNoToken() async throws {
        try await withServer { server in #expect(server.adminToken == nil) }
    }

    @Test func hostNames_AreParsedFromHostHeaders() {
        #expect(AdminAccess.hostName("[::1]:8080") == "::1")
        #expect(AdminAccess.hostName("localhost:8080") == "localhost")
        #expect(AdminAccess.hostName("::1") == nil, "an IPv6 address in a Host header must be bracketed")
        #expect(AdminAccess.hostName("localhost:") == nil && AdminAccess.hostName("a:123456") == nil)
        #expect(AdminAccess.isLoopbackHost("127.8.9.10") && AdminAccess.isLoopbackHost("[::1]"))
        #expect(!AdminAccess.isLoopbackHost("0.0.0.0") && !AdminAccess.isLoopbackHost("::"))
    }

    /// The fast path for the usual loopback Host values lets through only what the full rule lets through, and takes
    /// every other value to the full rule.
    @Test(arguments: [("127.0.0.1", true), ("127.0.0.1:8080", true), ("localhost", true), ("localhost:1", true),
                      ("localhost:65535", true), ("localhost:", false), ("localhost:123456", false), ("localhost:8o", false),
                      ("127.0.0.1:80:80", false), ("127.0.0.1.evil.com", false), ("localhost.evil.com", false),
                      ("localhostx", false), ("127.0.0.10", false), ("LOCALHOST", false), ("localhost:\u{663}", false),
                      ("127.0.0.1 ", false), (" localhost", false)])
    func thePlainLoopbackFastPath_AgreesWithTheFullRule(host: String, fast: Bool) {
        let full = AdminAccess.hostName(host).map { AdminAccess.isLoopbackName(AdminAccess.normalized($0)) } ?? false
        #expect(AdminAccess.isPlainLoopback(host) == fast, "\(host)")
        if fast { #expect(full, "\(host) passes the fast path but not the full rule") }
    }
}

/// The journal never keeps a credential: header names stay, values become scheme and length.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct JournalRedactionTests {
    private let token = String(repeating: "t", count: 36)

    private func journaledHeaders(_ configure: @escaping (inout MockServer.Configuration) -> Void) async throws
        -> JournalEntry {
        try await withServer(configure: configure) { server in
            let client = try RawClient(port: server.port)
            _ = try client.get("/healthChecker", headers: ["Authorization": "Bearer \(token)", "Cookie": "session=abc",
                                                           "X-Api-Key": "k3y"])
            return try #require(server.journal.entries().last)
        }
    }

    @Test func credentials_AreStoredAsSchemeAndLength() async throws {
        let entry = try await journaledHeaders { _ in }
        #expect(entry.header("Authorization") == "Bearer <redacted, 36 bytes>")
        #expect(entry.header("Cookie") == "<redacted, 11 bytes>")
        #expect(entry.header("X-Api-Key") == "k3y")
    }

    @Test func redactHeader_AddsNames_AndJournalSecretsKeepsValues() async throws {
        let extra = try await journaledHeaders { $0.redactedHeaders = ["x-api-key"] }
        #expect(extra.header("X-Api-Key") == "<redacted, 3 bytes>")
        let kept = try await journaledHeaders { $0.journalSecrets = true }
        #expect(kept.header("Authorization") == "Bearer \(token)" && kept.header("Cookie") == "session=abc")
    }
}
