@testable import HTTPCore
import Testing

/// What each reply and transport fault puts on the wire, without a socket.
struct WirePlanTests {
    private let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)

    private func request(_ method: HTTPRequest.Method = "GET", http10: Bool = false, close: Bool = false) -> HTTPRequest {
        var headers = HTTPHeaders()
        if close { headers.append(name: "Connection", value: "close") }
        var request = HTTPRequest(method: method, target: "/", version: http10 ? .http10 : .http11, headers: headers)
        if close { request.facts.connectionClose = true }
        return request
    }

    private func text(_ plan: WirePlan) -> String { String(decoding: plan.head + plan.body, as: UTF8.self) }

    @Test func response_KeepsAlive_UnlessAskedToClose_OrStopping() {
        let reply = Reply.respond(HTTPResponse(status: .ok, body: Array("hi".utf8)))
        let kept = WirePlan(reply, for: request(), stopping: false, date: date)
        guard case .keepAlive = kept.after else { Issue.record("\(kept.after)"); return }
        #expect(text(kept).hasSuffix("Connection: keep-alive\r\n\r\nhi") && kept.byteCount == text(kept).utf8.count)
        for plan in [WirePlan(reply, for: request(close: true), stopping: false, date: date),
                     WirePlan(reply, for: request(), stopping: true, date: date),
                     WirePlan(Reply(.respond(HTTPResponse(status: .ok)), closeAfter: true), for: request(),
                              stopping: false, date: date)] {
            guard case .close = plan.after else { Issue.record("\(plan.after)"); continue }
            #expect(text(plan).contains("Connection: close\r\n"))
        }
    }

    @Test func truncate_AnnouncesMoreThanItSends_AndHEADGetsNoBodyByte() {
        let response = HTTPResponse(status: .ok, head: Array("HTTP/1.1 200 OK\r\n".utf8), body: Array("half".utf8))
        let reply = Reply(.transport(.truncate(response, announcedLength: 64)))
        let get = WirePlan(reply, for: request(), stopping: false, date: date)
        #expect(text(get).contains("Content-Length: 64\r\n") && text(get).hasSuffix("\r\n\r\nhalf"))
        guard case .close = get.after else { Issue.record("\(get.after)"); return }
        let head = WirePlan(reply, for: request("HEAD"), stopping: false, date: date)
        #expect(text(head).contains("Content-Length: 64\r\n") && text(head).hasSuffix("\r\n\r\n"))
    }

    @Test func otherFaults_SendWhatTheySay() {
        let plans = [TransportAction.reset, .close, .sendThenClose(Array("junk".utf8)), .hold(milliseconds: -5)]
            .map { WirePlan(Reply(.transport($0)), for: request(), stopping: false, date: date) }
        guard case .reset = plans[0].after, case .close = plans[1].after, case .close = plans[2].after,
              case .hold(let milliseconds) = plans[3].after else { Issue.record("\(plans.map(\.after))"); return }
        #expect(plans[0].byteCount == 0 && plans[1].byteCount == 0 && plans[3].byteCount == 0)
        #expect(text(plans[2]) == "junk")
        #expect(milliseconds == 0, "a negative hold is no hold")
    }

    @Test func stream_IsChunkedForHTTP11_AndReadToTheCloseForHTTP10() {
        let response = HTTPResponse(status: .ok, headers: [("Content-Type", "text/event-stream")])
        let http11 = WirePlan(Reply(.stream(response, ReplyStream())), for: request(), stopping: false, date: date)
        guard case .stream(_, let chunked, let closeAfter) = http11.after else { Issue.record("\(http11.after)"); return }
        #expect(chunked && !closeAfter && text(http11).contains("Transfer-Encoding: chunked\r\n"))
        let http10 = WirePlan(Reply(.stream(response, ReplyStream())), for: request(http10: true), stopping: false, date: date)
        guard case .stream(_, let chunked10, let closeAfter10) = http10.after else { Issue.record("\(http10.after)"); return }
        #expect(!chunked10 && closeAfter10 && !text(http10).contains("Transfer-Encoding"))
        #expect(WirePlan.chunk(Array("abc".utf8), chunked: true).joined().elementsEqual("3\r\nabc\r\n".utf8))
        #expect(WirePlan.chunk(Array("abc".utf8), chunked: false).joined().elementsEqual("abc".utf8))
    }

    @Test func streamToHEAD_SendsTheHeadOnly_AndLeavesTheStreamUnused() {
        let stream = ReplyStream()
        let plan = WirePlan(Reply(.stream(HTTPResponse(status: .ok), stream)), for: request("HEAD"), stopping: false,
                            date: date)
        guard case .keepAlive = plan.after else { Issue.record("\(plan.after)"); return }
        #expect(plan.unused === stream && text(plan).hasSuffix("\r\n\r\n"))
    }
}
