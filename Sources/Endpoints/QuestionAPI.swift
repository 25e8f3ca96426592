import Foundation
import Networking

/// The question endpoints, typed. Responses are enveloped (`{status, responseMsg, data}`) and every call
/// needs `Authorization: Bearer <token>`, which ``QuestionService`` adds.
public enum QuestionAPI {
    /// The question routes (the Router): path, method, headers and body of each call.
    public enum Route: Endpoint {
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

        /// The route's path below the base URL.
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

        /// `PUT` to answer, `POST` for the list and the nudge, `GET` otherwise.
        public var method: HTTPMethod {
            switch self {
            case .answer: .put
            case .latestPageNo, .question, .today: .get
            case .list, .pressForAnswer: .post
            }
        }

        /// `Accept: application/json`.
        public var headers: [String: String] { ["Accept": "application/json"] }

        /// A camelCase JSON body for the calls that send one.
        public var body: any RequestBody {
            switch self {
            case .answer(let index, let myAnswer): .json(AnswerBody(index: index, myAnswer: myAnswer))
            case .list(let pageNo): .json(PageBody(pageNo: pageNo))
            case .pressForAnswer(let index): .json(IndexBody(index: index))
            case .latestPageNo, .question, .today: .plain
            }
        }
    }

    /// Answers a question; the server answers the question with the answer.
    public static func answer(index: Int, myAnswer: String) -> Request<Question> {
        Request(Route.answer(index: index, myAnswer: myAnswer), decoding: .envelope(Question.self, decoder: decoder))
    }

    /// The number of the newest page of the history.
    public static var latestPageNo: Request<LatestPageNo> {
        Request(Route.latestPageNo, decoding: .envelope(LatestPageNo.self, decoder: decoder))
    }

    /// One question by its index.
    public static func question(index: Int) -> Request<Question> {
        Request(Route.question(index: index), decoding: .envelope(Question.self, decoder: decoder))
    }

    /// One page of the history.
    public static func list(pageNo: Int) -> Request<QuestionPage> {
        Request(Route.list(pageNo: pageNo), decoding: .envelope(QuestionPage.self, decoder: decoder))
    }

    /// Today's question.
    public static var today: Request<Question> {
        Request(Route.today, decoding: .envelope(Question.self, decoder: decoder))
    }

    /// Nudges the partner to answer; the envelope carries no data.
    public static func pressForAnswer(index: Int) -> Request<Void> {
        Request(Route.pressForAnswer(index: index), decoding: .envelopeWithoutData)
    }

    /// Decodes responses: camelCase keys, ISO 8601 dates. Built once and shared: do not change it.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    struct AnswerBody: Encodable, Sendable { let index: Int; let myAnswer: String }
    struct PageBody: Encodable, Sendable { let pageNo: Int }
    struct IndexBody: Encodable, Sendable { let index: Int }
}

/// Typed calls of ``QuestionAPI``, each authorised with the current bearer token: what a view model calls.
public struct QuestionService: Sendable {
    /// The client every call goes through.
    public let client: APIClient
    private let auth: BearerTokenInterceptor

    /// - Parameters:
    ///   - client: The client every call goes through.
    ///   - token: Returns the current access token; asked on every call.
    public init(client: APIClient, token: @escaping @Sendable () async throws -> String) {
        self.client = client
        self.auth = BearerTokenInterceptor(token: token)
    }

    /// Answers question `index`.
    public func answer(index: Int, myAnswer: String, interceptors: [any RequestInterceptor] = []) async
        -> NetworkResult<Question>
    {
        await send(QuestionAPI.answer(index: index, myAnswer: myAnswer), interceptors)
    }

    /// The number of the newest page of the history.
    public func latestPageNo(interceptors: [any RequestInterceptor] = []) async -> NetworkResult<LatestPageNo> {
        await send(QuestionAPI.latestPageNo, interceptors)
    }

    /// Question `index`.
    public func question(index: Int, interceptors: [any RequestInterceptor] = []) async -> NetworkResult<Question> {
        await send(QuestionAPI.question(index: index), interceptors)
    }

    /// Page `pageNo` of the history.
    public func list(pageNo: Int, interceptors: [any RequestInterceptor] = []) async -> NetworkResult<QuestionPage> {
        await send(QuestionAPI.list(pageNo: pageNo), interceptors)
    }

    /// Today's question.
    public func today(interceptors: [any RequestInterceptor] = []) async -> NetworkResult<Question> {
        await send(QuestionAPI.today, interceptors)
    }

    /// Nudges the partner to answer; the envelope carries no data.
    public func pressForAnswer(index: Int, interceptors: [any RequestInterceptor] = []) async -> NetworkResult<Void> {
        await send(QuestionAPI.pressForAnswer(index: index), interceptors)
    }

    private func send<Response>(_ request: Request<Response>, _ interceptors: [any RequestInterceptor]) async
        -> NetworkResult<Response>
    {
        await client.send(request, interceptors: [auth] + interceptors)
    }
}
