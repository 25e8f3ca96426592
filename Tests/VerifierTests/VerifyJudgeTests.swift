import ContractModel
import Testing
@testable import Verifier

/// How an answer is judged against a scenario: status, media type, named headers, JSON shape.
@Suite struct VerifyJudgeTests {
    private func expectation(_ expect: ContractModel.Expectation = .success, exact: Int? = nil, headers: [String] = [],
                             shape: String? = #"{"id":1}"#) -> VerifyExpectation {
        VerifyExpectation(expect: expect, exactStatus: exact, mediaType: "application/json", headerNames: headers,
                          shape: shape.flatMap { try? JSONValue.parse(Array($0.utf8)) })
    }

    private func judge(_ expectation: VerifyExpectation, status: Int = 200,
                       headers: [(name: String, value: String)] = [("Content-Type", "application/json; charset=utf-8")],
                       body: String = #"{"id":2}"#, strict: Bool = false) -> (VerifyResult.Verdict, [String]) {
        let result = VerifyJudge.judge(expectation, status: status, headers: headers, body: Array(body.utf8), strict: strict)
        return (result.verdict, result.notes)
    }

    @Test func matchingAnswer_IsVerified() {
        #expect(judge(expectation()).0 == .verified)
        #expect(judge(expectation(.requestErr, shape: nil), status: 404).0 == .verified)
    }

    @Test func statusClass_OrExactStatus_Drifts() {
        #expect(judge(expectation(), status: 500).0 == .drift(["status 500, expected 2xx (success)"]))
        #expect(judge(expectation(.requestErr, exact: 404, shape: nil), status: 410).0 == .drift(["status 410, expected 404"]))
    }

    @Test func mediaTypeAndNamedHeaders_AreCheckedByPresence() {
        let verdict = judge(expectation(headers: ["ETag", "Content-Type"]), headers: [("Content-Type", "text/html")]).0
        #expect(verdict == .drift(["header Content-Type: text/html, expected application/json", "header ETag: missing"]))
    }

    @Test func headAnd204_HaveNoBodyToCompare_AndANullIsANote() {
        #expect(judge(expectation(), body: "", strict: false).0 != .verified, "a GET must send the body")
        let head = VerifyJudge.judge(expectation(), status: 200, headers: [("Content-Type", "application/json")], body: [],
                                     method: "HEAD", strict: false)
        #expect(head.verdict == .verified)
        #expect(judge(expectation(.success, shape: #"{"id":1}"#), status: 204, headers: [], body: "").0
            == .drift(["header Content-Type: missing, expected application/json"]))
        let nullable = judge(expectation(), body: #"{"id":null}"#)
        #expect(nullable.0 == .verified && nullable.1 == ["/id: fixture number, backend null"])
        #expect(judge(expectation(), body: #"{"id":null}"#, strict: true).0 == .drift(["/id: fixture number, backend null"]))
    }

    @Test func extraKeys_AreNotes_UnlessStrict() {
        let loose = judge(expectation(), body: #"{"id":2,"new":true}"#)
        #expect(loose.0 == .verified && loose.1 == ["/new: only in the backend's answer (boolean)"])
        #expect(judge(expectation(), body: #"{"id":2,"new":true}"#, strict: true).0
            == .drift(["/new: only in the backend's answer (boolean)"]))
        #expect(judge(expectation(), body: "<html>").0
            == .drift(["body: not JSON (6 bytes), expected JSON shaped like the fixture"]))
    }
}
