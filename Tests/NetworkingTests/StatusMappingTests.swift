#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

struct StatusMappingTests {
    struct Item: Decodable, Equatable { let id: Int }
    let mapping = StatusMapping()

    @Test(arguments: [200, 201, 204, 299])
    func twoHundreds_AreSuccess_WhenBodyDecodes(status: Int) {
        let result = mapping.result(status: status, body: Data(#"{"id":3}"#.utf8), decoding: .json(Item.self))
        #expect(result.value == Item(id: 3))
    }

    @Test(arguments: [
        #"{"id":"three"}"#, #"{"name":"x"}"#, #"{"id":3"#, "", "<html></html>",
    ])
    func twoHundreds_ArePathErr_WhenBodyDoesNotDecode(body: String) {
        let result = mapping.result(status: 200, body: Data(body.utf8), decoding: .json(Item.self))
        guard case .pathErr(let failure) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(failure.status == 200)
        #expect(failure.body == Array(body.utf8))
    }

    @Test(arguments: [400, 401, 404, 422, 499])
    func fourHundreds_AreRequestErr_WithEnvelopeMessage(status: Int) {
        let body = Data(#"{"status":\#(status),"responseMsg":"질문이 없습니다","data":null}"#.utf8)
        let result = mapping.result(status: status, body: body, decoding: .json(Item.self))
        guard case .requestErr(let gotStatus, let message) = result else {
            Issue.record("got \(result.caseName)"); return
        }
        #expect(gotStatus == status)
        #expect(message == "질문이 없습니다")
    }

    @Test func requestErr_UsesMessageField_OrBodyText() {
        let jsonMessage = mapping.result(status: 404, body: Data(#"{"message":"no such product"}"#.utf8),
                                         decoding: .empty)
        let plain = mapping.result(status: 400, body: Data(" bad page \n".utf8), decoding: .empty)
        guard case .requestErr(_, let first) = jsonMessage, case .requestErr(_, let second) = plain else {
            Issue.record("expected requestErr"); return
        }
        #expect(first == "no such product")
        #expect(second == "bad page")
    }

    @Test(arguments: [500, 503, 599])
    func fiveHundreds_AreServerErr(status: Int) {
        let result = mapping.result(status: status, body: Data(#"{"id":1}"#.utf8), decoding: .json(Item.self))
        guard case .serverErr(let got) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(got == status)
    }

    @Test(arguments: [100, 101, 199, 300, 301, 304, 399, 600, 0])
    func otherStatuses_AreNetworkFail(status: Int) {
        let result = mapping.result(status: status, body: Data(), decoding: .empty)
        guard case .networkFail(let error) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(error.kind == .unexpectedStatus)
        #expect(error.status == status)
    }

    @Test func envelope_Decodes_AndMissingDataIsPathErr() {
        let ok = mapping.result(status: 200, body: Data(#"{"status":200,"responseMsg":"ok","data":{"id":9}}"#.utf8),
                                decoding: .envelope(Item.self))
        #expect(ok.value == Item(id: 9))
        let missing = mapping.result(status: 200, body: Data(#"{"status":200,"responseMsg":"ok","data":null}"#.utf8),
                                     decoding: .envelope(Item.self))
        guard case .pathErr(let failure) = missing else { Issue.record("got \(missing.caseName)"); return }
        #expect(failure.underlying as? EnvelopeError == .missingData)
    }

    @Test func envelopeWithoutData_RejectsNonEnvelope() {
        let ok = mapping.result(status: 200, body: Data(#"{"status":200,"responseMsg":"ok","data":null}"#.utf8),
                                decoding: .envelopeWithoutData)
        #expect(ok.caseName == "success")
        let broken = mapping.result(status: 200, body: Data("not json".utf8), decoding: .envelopeWithoutData)
        #expect(broken.caseName == "pathErr")
    }

    @Test func text_Decodes_AndEmptyIsPathErr() {
        #expect(mapping.result(status: 200, body: Data("OK".utf8), decoding: .text).value == "OK")
        #expect(mapping.result(status: 200, body: Data(), decoding: .text).caseName == "pathErr")
        #expect(mapping.result(status: 200, body: Data([0xFF, 0xFE]), decoding: .text).caseName == "pathErr")
    }

    @Test(arguments: [204, 205, 200])
    func empty_Succeeds_WithEmptyBody(status: Int) {
        #expect(mapping.result(status: status, body: Data(), decoding: .empty).caseName == "success")
    }

    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, TransportError.Kind.cannotConnect),
        (.cannotFindHost, .cannotConnect),
        (.networkConnectionLost, .connectionLost),
        (.unknown, .connectionLost),
        (.badServerResponse, .connectionLost),
        (.unsupportedURL, .badResponse),
        (.cannotParseResponse, .badResponse),
        (.timedOut, .timedOut),
        (.cancelled, .cancelled),
        (.dataLengthExceedsMaximum, .invalidRequest),
        (.cannotWriteToFile, .other),
    ])
    func transportErrors_AreClassified(code: URLError.Code, kind: TransportError.Kind) {
        let result: NetworkResult<Void> = mapping.result(for: URLError(code))
        guard case .networkFail(let error) = result else { Issue.record("got \(result.caseName)"); return }
        #expect(error.kind == kind)
        #expect((error.underlying as? URLError)?.code == code)
    }

    @Test func cancellationAndBuildErrors_AreClassified() {
        #expect(TransportError.classify(CancellationError()).kind == .cancelled)
        #expect(TransportError.classify(RequestBuildError.invalidURL("x")).kind == .invalidRequest)
    }
}
