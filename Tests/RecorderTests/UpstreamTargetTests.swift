import Recorder
import Testing

struct UpstreamTargetTests {
    @Test func basePath_IsJoinedWithTheRequestPath() throws {
        let target = try UpstreamTarget(parsing: "http://h:8081/api/")
        #expect(target.url == "http://h:8081/api")
        #expect(target.requestTarget(path: "/v1/items", query: "a=1" as String?) == "/api/v1/items?a=1")
        #expect(try UpstreamTarget(parsing: "http://h").requestTarget(path: "/x", query: nil as String?) == "/x")
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

    @Test(arguments: [
        ("ftp://x", "is not an http:// URL"), ("http://", "has no host"), ("http://:80", "has no host"),
        ("http://h/a?b=1", "no query or fragment"), ("http://h/#f", "no query or fragment"),
        ("http://h:99999", "is not a port"), ("http://u:p@h", "credentials"),
        ("https://api.example.com", "HTTPS targets are not supported yet"),
        ("http://h/a b", "the path has ' '"), ("http://h/a%zz", "the path has '%'"), ("http://h/caf\u{E9}", "non-ASCII"),
        ("http://h/a\"b", "the path has '\"'"),
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
