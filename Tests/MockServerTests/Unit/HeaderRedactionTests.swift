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
        #expect(redaction.apply(fields).map(\.value) == [
            "a", "Bearer <redacted, 6 bytes>", "*/*", "<redacted, 3 bytes>", "<redacted, 1 bytes>",
            "Basic <redacted, 3 bytes>", "not secret",
        ])
        #expect(HeaderRedaction(extraNames: [], enabled: false).apply(fields).map(\.value) == fields.map(\.value))
    }
}
