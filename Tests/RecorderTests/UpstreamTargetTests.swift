import Recorder
import Testing

@Suite(.timeLimit(.minutes(2)))
struct UpstreamTargetTests {
    @Test func basePath_LosesItsTrailingSlash() throws {
        let target = try UpstreamTarget(parsing: "http://h:8081/api/")
        #expect(target.url == "http://h:8081/api" && target.basePath == "/api")
        #expect(try UpstreamTarget(parsing: "http://h").basePath == "")
    }

    @Test func pathsWithEscapesAndSubDelimiters_AreKept() throws {
        #expect(try UpstreamTarget(parsing: "http://h/caf%C3%A9/a:b@c;v=1,2").basePath == "/caf%C3%A9/a:b@c;v=1,2")
    }

    @Test func hostField_NamesTheTarget_WithItsPortUnless80() throws {
        #expect(try UpstreamTarget(parsing: "http://h:8081").hostField == "h:8081")
        #expect(try UpstreamTarget(parsing: "http://h").hostField == "h")
        let v6 = try UpstreamTarget(parsing: "http://[::1]:9000/base")
        #expect(v6.host == "::1" && v6.port == 9000 && v6.hostField == "[::1]:9000")
    }

    @Test func httpsTarget_IsSecure_WithPort443UnlessGiven_AndKeepsItsBasePath() throws {
        // GIVEN https:// targets with and without a port
        let target = try UpstreamTarget(parsing: "https://api.example.com/v1/")
        let ported = try UpstreamTarget(parsing: "HTTPS://[::1]:8443")
        // THEN they are relayed through the TLS bridge, which gets the base path with the origin
        #expect(target.isSecure && target.port == 443 && target.hostField == "api.example.com")
        #expect(target.url == "https://api.example.com/v1" && target.secureURL == "https://api.example.com/v1")
        #expect(ported.isSecure && ported.port == 8443 && ported.hostField == "[::1]:8443")
        #expect(ported.secureURL == "https://[::1]:8443")
        #expect(try !UpstreamTarget(parsing: "http://h:443").isSecure)
        #expect(try UpstreamTarget(parsing: "http://h:443").hostField == "h:443")
    }

    @Test(arguments: [
        ("ftp://x", "is not an http:// or https:// URL"), ("http://", "has no host"), ("http://:80", "has no host"),
        ("http://h/a?b=1", "no query or fragment"), ("http://h/#f", "no query or fragment"),
        ("http://h:99999", "is not a port"), ("http://u:p@h", "credentials"),
        ("http://h/a b", "the path has ' '"), ("http://h/a%zz", "the path has '%'"), ("http://h/caf\u{E9}", "non-ASCII"),
        ("http://h/a\"b", "the path has '\"'"),
        ("https://api.example.com/?x=1", "no query or fragment"), ("https://", "has no host"),
    ])
    func unusableURL_IsRefused_WithTheReason(text: String, reason: String) {
        #expect(throws: UpstreamTarget.Problem.self) { try UpstreamTarget(parsing: text) }
        do {
            _ = try UpstreamTarget(parsing: text)
        } catch {
            #expect(error.description.contains(reason), "\(error.description)")
        }
    }
}
