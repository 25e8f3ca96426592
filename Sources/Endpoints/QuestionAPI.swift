import Foundation
import Networking

/// The question endpoints. Responses are enveloped (`{status, responseMsg, data}`) and every call
/// needs `Authorization: Bearer <token>`, which ``QuestionService`` adds.
public enum QuestionAPI: Endpoint {
    /// `PUT /api/v1/question`, body `{index, myAnswer}`
    case answer(index: Int, myAnswer: String)
    /// `GET /api/v1/question/latest-page-no`
    case latestPageNo
    /// `GET /api/v1/question/{index}`
    case question(index: Int)
    /// `POST /api/v1/questions`, body `{pageNo}`
    case list(pageNo: Int)
    /// `GET /api/v1/question/today`
    case today
    /// `POST /api/v1/question/press-for-answer`, body `{index}`
    case pressForAnswer(index: Int)

    public var path: String {
        switch self {
        case .answer: "/api/v1/question"
        case .latestPageNo: "/api/v1/question/latest-page-no"
        case .question(let index): "/api/v1/question/\(index)"
        case .list: "/api/v1/questions"
        case .today: "/api/v1/question/today"
        case .pressForAnswer: "/api/v1/question/press-for-answer"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .answer: .put
        case .latestPageNo, .question, .today: .get
        case .list, .pressForAnswer: .post
        }
    }

    public var headers: [String: String] { ["Accept": "application/json"] }

    public var body: any RequestBody {
        switch self {
        case .answer(let index, let myAnswer): .json(AnswerBody(index: index, myAnswer: myAnswer))
        case .list(let pageNo): .json(PageBody(pageNo: pageNo))
        case .pressForAnswer(let index): .json(IndexBody(index: index))
        case .latestPageNo, .question, .today: .plain
        }
    }

    /// Decodes responses: camelCase keys, ISO 8601 dates.
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    struct AnswerBody: Encodable, Sendable { let index: Int; let myAnswer: String }
    struct PageBody: Encodable, Sendable { let pageNo: Int }
    struct IndexBody: Encodable, Sendable { let index: Int }
}

/// Typed calls of ``QuestionAPI``, each authorised with the current bearer token.
public struct QuestionService: Sendable {
    public let client: APIClient
    private let auth: BearerTokenInterceptor

    /// - Parameter token: Returns the current access token; asked on every call.
    public init(client: APIClient, token: @escaping @Sendable () async throws -> String) {
        self.client = client
        self.auth = BearerTokenInterceptor(token: token)
    }

    public func answer(index: Int, myAnswer: String, interceptors: [any RequestInterceptor] = []) async
        -> NetworkResult<Question>
    {
        await send(.answer(index: index, myAnswer: myAnswer), .envelope(Question.self, decoder: QuestionAPI.decoder),
                   interceptors)
    }

    public func latestPageNo(interceptors: [any RequestInterceptor] = []) async -> NetworkResult<LatestPageNo> {
        await send(.latestPageNo, .envelope(LatestPageNo.self, decoder: QuestionAPI.decoder), interceptors)
    }

    public func question(index: Int, interceptors: [any RequestInterceptor] = []) async -> NetworkResult<Question> {
        await send(.question(index: index), .envelope(Question.self, decoder: QuestionAPI.decoder), interceptors)
    }

    public func list(pageNo: Int, interceptors: [any RequestInterceptor] = []) async -> NetworkResult<QuestionPage> {
        await send(.list(pageNo: pageNo), .envelope(QuestionPage.self, decoder: QuestionAPI.decoder), interceptors)
    }

    public func today(interceptors: [any RequestInterceptor] = []) async -> NetworkResult<Question> {
        await send(.today, .envelope(Question.self, decoder: QuestionAPI.decoder), interceptors)
    }

    /// Nudges the partner to answer; the envelope carries no data.
    public func pressForAnswer(index: Int, interceptors: [any RequestInterceptor] = []) async -> NetworkResult<Void> {
        await send(.pressForAnswer(index: index), .envelopeWithoutData, interceptors)
    }

    private func send<Decoding: ResponseDecoding>(
        _ endpoint: QuestionAPI,
        _ decoding: Decoding,
        _ interceptors: [any RequestInterceptor]
    ) async -> NetworkResult<Decoding.Value> {
        await client.send(endpoint, decoding: decoding, interceptors: [auth] + interceptors)
    }
}
