#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Endpoints
import Foundation
import MockServer
import Networking
import Testing

/// Responses that follow the request, through the typed services over real TCP: pages chosen by the
/// query, a templated echo, the flaky sequence and the answer-then-get flow. Each test runs in its own
/// mock session, so they run in parallel with every other case against the one shared server.
@Suite(.timeLimit(.minutes(2)))
struct ContractFlowTests {
    private func makeServices(_ session: MockSession) throws -> (Services, URLSession) {
        let server = try LiveServer.shared.get()
        let (client, urlSession) = LiveServer.client(port: server.port, session: session)
        return (Services(client: client), urlSession)
    }

    @Test func productPages_FollowPageNo_AndEchoItemsPerPage() async throws {
        let (services, urlSession) = try makeServices(MockSession())
        defer { urlSession.finishTasksAndInvalidate() }
        guard case .success(let second) = await services.products.list(page: 2, itemsPerPage: 5) else {
            Issue.record("page 2 did not decode")
            return
        }
        #expect(second.pageNo == 2 && second.itemsPerPage == 5 && second.limit == 5)
        #expect(second.pages.count == 6 && !second.hasNext && second.hasPrev)
        guard case .success(let first) = await services.products.list(page: 1, itemsPerPage: 5) else {
            Issue.record("page 1 did not decode")
            return
        }
        #expect(Set(first.pages.map(\.id)).isDisjoint(with: second.pages.map(\.id)), "two different pages")
        guard case .success(let beyond) = await services.products.list(page: 7, itemsPerPage: 5) else {
            Issue.record("a page past the end did not decode")
            return
        }
        #expect(beyond.pageNo == 7 && beyond.pages.isEmpty)
    }

    @Test func answer_IsEchoed_ThenShownByTheQuestion() async throws {
        let session = MockSession()
        let (services, urlSession) = try makeServices(session)
        defer { urlSession.finishTasksAndInvalidate() }
        guard case .success(let before) = await services.questions.question(index: 3) else {
            Issue.record("question 3 did not decode")
            return
        }
        #expect(before.myAnswer == nil)
        guard case .success(let answered) = await services.questions.answer(index: 3, myAnswer: "남산 \"타워\"") else {
            Issue.record("the answer did not decode")
            return
        }
        #expect(answered.myAnswer == "남산 \"타워\"", "the template echoes the answer sent, escaped as JSON")
        guard case .success(let after) = await services.questions.question(index: 3) else {
            Issue.record("question 3 did not decode after the answer")
            return
        }
        // The state picks the "answered" scenario; its fixture is canned (questions/answered/3.json), not an
        // echo of the answer: remembering values per item is what resources are for.
        #expect(after.myAnswer == "한강 공원", "once answered, the question shows the answered fixture")

        // Another session has not answered anything.
        let (others, otherSession) = try makeServices(MockSession())
        defer { otherSession.finishTasksAndInvalidate() }
        guard case .success(let elsewhere) = await others.questions.question(index: 3) else {
            Issue.record("question 3 did not decode in another session")
            return
        }
        #expect(elsewhere.myAnswer == nil)
    }

    @Test func flakyHealth_FailsTwice_ThenSucceeds() async throws {
        let (services, urlSession) = try makeServices(MockSession(scenario: "flaky"))
        defer { urlSession.finishTasksAndInvalidate() }
        var outcomes: [String] = []
        for _ in 0..<4 { outcomes.append(await services.health.check().caseName) }
        #expect(outcomes == ["serverErr", "serverErr", "success", "success"])
    }

    @Test func overrideForOneSession_LeavesOthersAlone() async throws {
        let server = try LiveServer.shared.get()
        let session = MockSession()
        #expect(server.setScenario("serverErr", for: "healthCheck", session: session.id))
        let (services, urlSession) = try makeServices(session)
        defer { urlSession.finishTasksAndInvalidate() }
        let (others, otherSession) = try makeServices(MockSession())
        defer { otherSession.finishTasksAndInvalidate() }
        #expect(await services.health.check().caseName == "serverErr")
        #expect(await others.health.check().caseName == "success")
    }

    /// The cart walked through its typed service, in a session of its own: add, change the quantity, a
    /// stale `If-Match` refused with 412, remove; another session still sees the seed.
    @Test func cart_AddChangeRemove_AndAStaleEditIs412() async throws {
        let (services, urlSession) = try makeServices(MockSession())
        defer { urlSession.finishTasksAndInvalidate() }
        let cart = services.cart
        guard case .success(let added) = await cart.add(productId: 9, quantity: 1) else {
            Issue.record("add failed")
            return
        }
        #expect(added.id == 3 && added.productId == 9)
        #expect(await cart.changeQuantity(id: added.id, quantity: 4).value?.quantity == 4)
        let stale = await cart.changeQuantity(id: added.id, quantity: 5, ifMatch: #""0000000000000000""#)
        guard case .requestErr(let status, _) = stale else {
            Issue.record("a stale If-Match gave \(stale.caseName)")
            return
        }
        #expect(status == 412)
        #expect(await cart.item(id: added.id).value?.quantity == 4, "the refused edit changed nothing")
        #expect(await cart.remove(id: added.id).caseName == "success")
        #expect(await cart.item(id: added.id).caseName == "requestErr")
        #expect(await cart.items().value?.map(\.id) == [1, 2])

        let (others, otherSession) = try makeServices(MockSession())
        defer { otherSession.finishTasksAndInvalidate() }
        #expect(await others.cart.items().value?.count == 2)
    }
}
