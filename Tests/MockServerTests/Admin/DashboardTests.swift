import Foundation
@testable import HTTPCore
@testable import MockServer
import TestSupport
import Testing

/// `GET /__mock/`: the browser dashboard's page and files, compiled into the module, served with a strict
/// Content-Security-Policy and the admin API's Host and Origin checks, but without the admin token.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct DashboardTests {
    private static let files = [
        ("/__mock/", "text/html; charset=utf-8"),
        ("/__mock/dashboard/dashboard.css", "text/css; charset=utf-8"),
        ("/__mock/dashboard/dashboard.js", "text/javascript; charset=utf-8"),
    ]

    @Test func page_AndItsFiles_AreServed_WithTheirTypes_AStrictPolicy_AndNoCaching() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            var total = 0
            for (path, type) in Self.files {
                let response = try client.get(path)
                #expect(response.status == 200, "\(path)")
                #expect(response.header("Content-Type") == type)
                #expect(response.header("Cache-Control") == "no-store")
                #expect(response.header("X-Content-Type-Options") == "nosniff")
                let policy = try #require(response.header("Content-Security-Policy"))
                for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                                  "frame-ancestors 'none'"] {
                    #expect(policy.contains(directive), "\(policy)")
                }
                #expect(!policy.contains("unsafe"))
                total += response.body.count
            }
            #expect(total < 150 * 1024, "\(total) bytes")
            let page = try client.get("/__mock/").text
            #expect(page.contains(#"<link rel="stylesheet" href="/__mock/dashboard/dashboard.css">"#))
            #expect(page.contains(#"<script src="/__mock/dashboard/dashboard.js" defer></script>"#))
        }
    }

    /// No inline script or style (the policy would block them), nothing from another origin, and request
    /// data never written as HTML.
    @Test func files_LoadNothingFromElsewhere_AndNeverWriteHTML() {
        let html = String(decoding: PackageResources.dashboard_html, as: UTF8.self)
        let css = String(decoding: PackageResources.dashboard_css, as: UTF8.self)
        let js = String(decoding: PackageResources.dashboard_js, as: UTF8.self)
        for text in [html, css, js] {
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("@import"))
        }
        #expect(!html.contains("<script>") && !html.contains("<style") && !html.contains("style=")
                && html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
        #expect(!js.contains("innerHTML") && !js.contains("outerHTML") && !js.contains("insertAdjacentHTML")
                && !js.contains("eval(") && !js.contains("new Function"))
        #expect(css.contains("prefers-color-scheme: dark"))
    }

    @Test func head_SendsTheHeadOnly_AndOtherMethodsAre405() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("HEAD /__mock/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try #require(RawResponse(parsing: client.readSome() ?? [], bodyless: true))
            #expect(head.status == 200 && head.header("Content-Length") == String(PackageResources.dashboard_html.count))
            let post = try client.request("POST", "/__mock/dashboard/dashboard.js")
            #expect(post.status == 405 && post.header("Allow") == "GET, HEAD")
        }
    }

    @Test func adminPathWithoutItsSlash_RedirectsToThePage() async throws {
        try await withServer { server in
            let response = try RawClient(port: server.port).get("/__mock")
            #expect(response.status == 308 && response.header("Location") == "/__mock/")
            #expect(try RawClient(port: server.port).get("/__mock/dashboard/other.js").status == 404)
        }
    }

    @Test(arguments: files.map(\.0))
    func page_IsRefused_UnderAForeignHost_OrFromAnotherPage(path: String) async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET \(path) HTTP/1.1\r\nHost: attacker.example\r\n\r\n")
            #expect(try client.readResponse().status == 403)
            client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: http://evil.example\r\n\r\n")
            #expect(try client.readResponse().status == 403)
        }
    }

    /// The page holds no secret and needs no token; every admin call it makes does.
    @Test func page_NeedsNoToken_ButTheAdminAPIStillDoes() async throws {
        try await withServer(configure: { $0.adminToken = "s3cret" }) { server in
            let client = try RawClient(port: server.port)
            for (path, _) in Self.files { #expect(try client.get(path).status == 200, "\(path)") }
            #expect(try client.get("/__mock").status == 308)
            for path in ["/__mock/health", "/__mock/journal", "/__mock/events", "/__mock/contracts"] {
                #expect(try client.get(path).status == 401, "\(path)")
            }
            #expect(try client.get("/__mock/health", headers: ["X-Mock-Admin-Token": "s3cret"]).status == 200)
            #expect(server.dashboardURL == "http://127.0.0.1:\(server.port)/__mock/#token=s3cret")
        }
    }

    @Test func dashboardURL_IsOnLoopback_AndCarriesAGivenTokenEncoded() async throws {
        try await withServer { server in
            #expect(server.dashboardURL == "http://127.0.0.1:\(server.port)/__mock/")
        }
        try await withServer(configure: { $0.host = "0.0.0.0" }) { server in
            // The made-up token is asked of other devices only: the link for this machine needs none.
            #expect(server.dashboardURL == "http://127.0.0.1:\(server.port)/__mock/")
            let token = try #require(server.adminToken)
            #expect(server.dashboardURL(networkAddress: "192.168.1.20")
                    == "http://192.168.1.20:\(server.port)/__mock/#token=\(token)")
        }
        #expect(MockServer.tokenFragment("a b&c/é") == "#token=a%20b%26c%2F%C3%A9")
    }

    /// What the page's header and Server view show.
    @Test func health_TellsVersionAddressUptimeFoldersAndRequests() async throws {
        try await withServer { server in
            let client = try RawClient(port: server.port)
            for _ in 0..<3 { _ = try client.get("/healthChecker") }
            let health = try #require(try JSONSerialization.jsonObject(with: Data(client.get("/__mock/health").body)) as? [String: Any])
            #expect(health["version"] as? String == MockServer.version)
            #expect(health["address"] as? String == "127.0.0.1:\(server.port)")
            #expect(health["requests"] as? Int == 3)
            #expect((health["uptimeSeconds"] as? Int ?? -1) >= 0 && health["startedAt"] is String)
            #expect(health["contractsDirectory"] as? String == Repository.contracts)
            let listing = try JSONSerialization.jsonObject(with: Data(client.get("/__mock/contracts").body)) as? [[String: Any]]
            #expect(listing?.first { $0["domain"] as? String == "products" }?["resources"] as? [String] == ["cartItems"])
        }
    }
}
