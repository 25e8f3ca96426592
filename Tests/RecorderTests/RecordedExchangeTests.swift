import Recorder
import Testing

@Suite(.timeLimit(.minutes(2))) struct RecordedExchangeTests {
    @Test func exchangesCompareByEveryPart() {
        let one = RecordedExchange(method: "GET", path: "/v1/items/1", query: nil, requestHeaders: [], requestBody: [],
                                   status: 200, responseHeaders: [.init(name: "Content-Type", value: "application/json")],
                                   responseBody: Array("{}".utf8))
        var other = one
        other.status = 404
        #expect(one != other)
    }
}
