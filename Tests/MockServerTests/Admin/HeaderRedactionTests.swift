import HTTPCore
@testable import MockServer
import Testing

/// What the journal keeps of a credential header's value.
struct HeaderRedactionTests {
    @Test(arguments: [
        ("Bearer abc", true, "Bearer <redacted, 3 bytes>"),
        ("Bearer   abc", true, "Bearer <redacted, 3 bytes>"),
        ("Basic é", true, "Basic <redacted, 2 bytes>"),
        ("token", true, "<redacted, 5 bytes>"),
        ("Bearer abc", false, "<redacted, 10 bytes>"),
        ("", false, "<redacted, 0 bytes>"),
        (" abc", true, " <redacted, 3 bytes>"),
        ("Bearer ", true, "Bearer <redacted, 0 bytes>"),
        ("Bearer " + String(repeating: "t", count: 1_234), true, "Bearer <redacted, 1234 bytes>"),
        (String(repeating: "t", count: 10), false, "<redacted, 10 bytes>"),
        ("Négociation x", true, "Négociation <redacted, 1 bytes>"),
    ])
    func value_KeepsItsSchemeAndLength_Only(value: String, keepingScheme: Bool, redacted: String) {
        #expect(HeaderRedaction.redacted(value, keepingScheme: keepingScheme) == redacted)
    }

    @Test func fields_NamedInAnyCase_AreRedacted_AndTheRestKeptAsSent() {
        let redaction = HeaderRedaction(extraNames: ["X-Api-Key"], enabled: true)
        let fields: [(name: String, value: String)] = [
            ("Host", "a"), ("authorization", "Bearer secret"), ("Accept", "*/*"), ("COOKIE", "c=1"),
            ("x-api-key", "k"), ("Proxy-Authorization", "Basic xyz"), ("Set-Cookies", "not secret"),
        ]
        #expect(Self.redactedAtOnce(fields, redaction).map { $0[1] } == [
            "a", "Bearer <redacted, 6 bytes>", "*/*", "<redacted, 3 bytes>", "<redacted, 1 bytes>",
            "Basic <redacted, 3 bytes>", "not secret",
        ])
        #expect(Self.redactedAtOnce(fields, HeaderRedaction(extraNames: [], enabled: false)).map { $0[1] }
            == fields.map(\.value))
    }

    /// The journal records the head as sent with marks, and redacts when it shows its fields: the same as redacting
    /// at once, and a secret past the 64 fields the marks hold is redacted as recorded.
    @Test func recordedFields_AreShownRedacted_AsRedactingAtOnce() {
        let redaction = HeaderRedaction(extraNames: ["X-Api-Key"], enabled: true)
        let secrets: [(name: String, value: String)] = [
            ("authorization", "Bearer secret"), ("COOKIE", "c=1"), ("x-api-key", "k"), ("Proxy-Authorization", "Basic xyz"),
        ]
        for count in [0, 1, 60, 63, 64, 70] {
            var fields: [(name: String, value: String)] = (0..<count).map { ("X-F\($0)", "v\($0)") }
            fields += secrets + [("Host", "a")]
            let entry = Self.entry(fields, redaction)
            let expected = Self.redactedAtOnce(fields, redaction)
            #expect(entry.headers == expected, "\(count) fields before")
            #expect(expected[count] == ["authorization", "Bearer <redacted, 6 bytes>"])
            #expect(expected.last == ["Host", "a"])
            // Marked while they fit; past that, the values are redacted already.
            let recorded = entry.sentFields
            #expect(count + 3 < 64 ? recorded[count].value == "Bearer secret" : recorded[count + 3].value == "Basic <redacted, 3 bytes>")
        }
        #expect(redaction.recorded(Self.request([("Host", "a")])).marks == .init())
    }

    /// `fields` with the secret ones redacted at once, as a relayed response's head is: what marking them and
    /// redacting them when shown must come to.
    private static func redactedAtOnce(_ fields: [(name: String, value: String)],
                                       _ redaction: HeaderRedaction) -> [[String]] {
        let head = redaction.redactedHead(HTTPRequest.head(method: "GET", target: "/", version: .http11, fields: fields))
        var read: [[String]] = []
        HeadFields.forEach(in: head) { name, value in
            read.append([String(decoding: head[name], as: UTF8.self), String(decoding: head[value], as: UTF8.self)])
        }
        return read
    }

    private static func request(_ fields: [(name: String, value: String)]) -> HTTPRequest {
        var headers = HTTPHeaders()
        for field in fields { headers.append(name: field.name, value: field.value) }
        return HTTPRequest(method: "GET", target: "/", headers: headers)
    }

    /// The entry the journal records for a request with `fields`.
    private static func entry(_ fields: [(name: String, value: String)], _ redaction: HeaderRedaction) -> JournalEntry {
        entry(request(fields), redaction)
    }

    private static func entry(_ request: HTTPRequest, _ redaction: HeaderRedaction) -> JournalEntry {
        let (head, secrets) = redaction.recorded(request)
        return JournalEntry(requestHead: head, secrets: secrets, bodySize: 0, endpoint: nil, scenario: nil, status: 200,
                            fault: nil, violations: [])
    }

    /// The journal marks a secret by its place among the parser's fields, and shows the fields it reads back from
    /// the head: the two must line up for every line the parser takes (tabs and spaces around a value, an empty
    /// value, a colon in a value, bytes past ASCII), or a mark would land on another field.
    @Test func parsedRequest_FieldsReadBackFromItsHead_AreTheParsers_AndItsSecretsRedacted() throws {
        let text = "GET /a HTTP/1.1\r\nHost: a\r\nX-Tab:\t v \t\r\nX-Empty:\r\nX-Colon: d:e\r\nX-High: caf\u{E9}\r\n"
            + "Authorization:  Bearer secret  \r\nCookie:c=1\r\n\r\n"
        guard case .request(let request, _) = HTTPRequestParser.parseAll(Array(text.utf8)) else {
            Issue.record("no request")
            return
        }
        var read: [[String]] = []
        HeadFields.forEach(in: request.head) { name, value in
            read.append([String(decoding: request.head[name], as: UTF8.self),
                         String(decoding: request.head[value], as: UTF8.self)])
        }
        #expect(read == request.headers.fields.map { [$0.name, $0.value] })
        let entry = Self.entry(request, HeaderRedaction(extraNames: [], enabled: true))
        #expect(entry.headers == [
            ["Host", "a"], ["X-Tab", "v"], ["X-Empty", ""], ["X-Colon", "d:e"], ["X-High", "caf\u{E9}"],
            ["Authorization", "Bearer <redacted, 6 bytes>"], ["Cookie", "<redacted, 3 bytes>"],
        ])
    }

    /// What the journal shows of an entry, in every form it takes, has the secrets redacted; its own storage holds
    /// the values as sent.
    @Test func journalEntry_ShowsSecretsRedacted_Everywhere() throws {
        let entry = Self.entry([("Host", "a"), ("Authorization", "Bearer secret")],
                               HeaderRedaction(extraNames: [], enabled: true))
        #expect(entry.sentFields.last?.value == "Bearer secret")
        #expect(entry.headers == [["Host", "a"], ["Authorization", "Bearer <redacted, 6 bytes>"]])
        #expect(entry.header("authorization") == "Bearer <redacted, 6 bytes>")
        let json = String(decoding: entry.json, as: UTF8.self)
        let encoded = String(decoding: ServerJSON.encode(entry), as: UTF8.self)
        #expect(!json.contains("secret") && json.contains("Bearer <redacted, 6 bytes>"))
        #expect(!encoded.contains("secret") && encoded.contains("Bearer <redacted, 6 bytes>"))
        #expect(!String(decoding: EventStreamFormat.event(for: entry), as: UTF8.self).contains("secret"))
        // Printed, dumped, or in a failed expectation's message.
        var dumped = ""
        dump(entry, to: &dumped)
        for text in [String(describing: entry), String(reflecting: entry), dumped, String(describing: [entry])] {
            #expect(!text.contains("secret") && text.contains("Bearer <redacted, 6 bytes>"), "\(text)")
        }
    }

    /// A relayed response's head, as the journal keeps it: a backend's `Set-Cookie` carries a session.
    @Test func responseHead_SecretValuesRedacted_EverythingElseByteForByte() {
        let redaction = HeaderRedaction(extraNames: ["X-Api-Key"], enabled: true)
        let head = Array(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nset-cookie: sid=0123456789; Path=/\r\n"
            + "Via: 1.1 mock-server\r\nX-API-KEY:\tk-123\r\nSet-Cookie:theme=dark\r\n").utf8)
        let shown = String(decoding: redaction.redactedHead(head), as: UTF8.self)
        #expect(shown == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nset-cookie: <redacted, 22 bytes>\r\n"
            + "Via: 1.1 mock-server\r\nX-API-KEY:\t<redacted, 5 bytes>\r\nSet-Cookie:<redacted, 10 bytes>\r\n")
        // Nothing secret, or redaction off (`--journal-secrets`): the head as it was.
        let plain = Array("HTTP/1.1 204 No Content\r\nX-Cookie-Count: 2\r\n".utf8)
        #expect(redaction.redactedHead(plain) == plain)
        #expect(HeaderRedaction(extraNames: [], enabled: false).redactedHead(head) == head)
    }
}
