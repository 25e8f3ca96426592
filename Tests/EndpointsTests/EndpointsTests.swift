#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Endpoints
import Foundation
import Networking
import Testing

struct EndpointsTests {
    let builder = RequestBuilder(environment: .local(port: 8080))

    private func body(_ request: URLRequest) -> String {
        String(decoding: request.httpBody ?? Data(), as: UTF8.self)
    }

    @Test func health_IsPlainGet() throws {
        let request = try builder.makeRequest(for: HealthAPI.check)
        #expect(request.httpMethod == "GET")
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/healthChecker")
        #expect(request.httpBody == nil)
    }

    @Test func productList_SendsPagingInQuery() throws {
        let request = try builder.makeRequest(for: ProductAPI.list(page: 2, itemsPerPage: 20))
        #expect(request.httpMethod == "GET")
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/api/products?page_no=2&items_per_page=20")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func productDetail_PutsIdInPath() throws {
        let request = try builder.makeRequest(for: ProductAPI.detail(id: 31))
        #expect(request.httpMethod == "GET")
        #expect(request.url?.path == "/api/products/31")
        #expect(request.value(forHTTPHeaderField: "identifier") == nil)
    }

    @Test func productCreate_IsMultipart_WithParamsAndImages() throws {
        let product = NewProduct(name: "말차 라떼", description: "진한 말차", price: 5500, currency: .krw,
                                 discountedPrice: 500, stock: 10, secret: "pw")
        let images = [ImageFile(fileName: "a.png", mimeType: "image/png", data: Data([1, 2])),
                      ImageFile(fileName: "b.jpg", mimeType: "image/jpeg", data: Data([3]))]
        let request = try builder.makeRequest(for: ProductAPI.create(vendorIdentifier: "v-77", product: product,
                                                                      images: images))
        #expect(request.httpMethod == "POST")
        #expect(request.url?.path == "/api/products")
        #expect(request.value(forHTTPHeaderField: "identifier") == "v-77")
        let contentType = try #require(request.value(forHTTPHeaderField: "Content-Type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let text = body(request)
        #expect(text.contains(#"name="params""#))
        #expect(text.contains(#""discounted_price":500"#))
        #expect(text.contains(#""name":"말차 라떼""#))
        #expect(text.components(separatedBy: #"name="images""#).count == 3)
        #expect(text.contains(#"filename="b.jpg""#))
    }

    @Test func productUpdate_IsSnakeCaseJSONPatch() throws {
        let request = try builder.makeRequest(for: ProductAPI.update(
            vendorIdentifier: "v-1", id: 5, changes: ProductUpdate(discountedPrice: 1.5, secret: "pw")))
        #expect(request.httpMethod == "PATCH")
        #expect(request.url?.path == "/api/products/5")
        #expect(request.value(forHTTPHeaderField: "identifier") == "v-1")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(body(request) == #"{"discounted_price":1.5,"secret":"pw"}"#)
    }

    @Test(arguments: [
        (QuestionAPI.Route.answer(index: 3, myAnswer: "좋아요"), "PUT", "/api/v1/question", #"{"index":3,"myAnswer":"좋아요"}"#),
        (.latestPageNo, "GET", "/api/v1/question/latest-page-no", ""),
        (.question(index: 12), "GET", "/api/v1/question/12", ""),
        (.list(pageNo: 4), "POST", "/api/v1/questions", #"{"pageNo":4}"#),
        (.today, "GET", "/api/v1/question/today", ""),
        (.pressForAnswer(index: 8), "POST", "/api/v1/question/press-for-answer", #"{"index":8}"#),
    ])
    func question_Endpoints(endpoint: QuestionAPI.Route, method: String, path: String, json: String) throws {
        let request = try builder.makeRequest(for: endpoint)
        #expect(request.httpMethod == method)
        #expect(request.url?.path == path)
        if json.isEmpty {
            #expect(request.httpBody == nil)
        } else {
            let sent = try JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? NSDictionary
            let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
            #expect(sent == expected)
            #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        }
    }

    @Test func questionService_SendsBearerToken_AndDecodesEnvelope() async throws {
        let envelope = #"{"status":200,"responseMsg":"ok","data":{"index":1,"title":"t","body":"b","#
            + #""myAnswer":null,"partnerAnswer":"p","createAt":"2026-03-01T09:00:00Z"}}"#
        let dispatcher = OfflineDispatcher(routes: ["GET /api/v1/question/today": .json(envelope)])
        let service = QuestionService(client: APIClient(environment: .local(), dispatcher: dispatcher)) { "abc" }
        let result = await service.today()
        let question = try #require(result.value)
        #expect(question.index == 1 && question.myAnswer == nil && question.partnerAnswer == "p")
        #expect(dispatcher.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
    }

    @Test func productService_DecodesSnakeCaseAndDates() async throws {
        let json = #"{"id":1,"vendor_id":2,"name":"n","description":"d","thumbnail":"https://x/1.png","currency":"USD","#
            + #""price":12.5,"bargain_price":10,"discounted_price":2.5,"stock":3,"#
            + #""created_at":"2026-01-15T09:30:00Z","issued_at":"2026-01-15T09:30:00Z"}"#
        let dispatcher = OfflineDispatcher(routes: ["GET /api/products/1": .json(json)])
        let service = ProductService(client: APIClient(environment: .local(), dispatcher: dispatcher),
                                     vendorIdentifier: "v")
        let product = try #require(await service.detail(id: 1).value)
        #expect(product.vendorId == 2 && product.currency == .usd && product.bargainPrice == 10)
        #expect(product.createdAt == Date(timeIntervalSince1970: 1_768_469_400))
    }

    @Test func healthService_ReadsText_AndEmptyBodyIsPathErr() async {
        let ok = OfflineDispatcher { _ in CannedResponse(body: Data("OK".utf8)) }
        let empty = OfflineDispatcher { _ in CannedResponse() }
        #expect(await HealthService(client: APIClient(environment: .local(), dispatcher: ok)).check().value == "OK")
        #expect(await HealthService(client: APIClient(environment: .local(), dispatcher: empty)).check().caseName
            == "pathErr")
    }

    @Test func typedEndpoints_DeclareTheirResponse_SoSendNeedsNoDecoding() async throws {
        // GIVEN a product and a health check served offline
        let json = #"{"id":7,"vendor_id":2,"name":"n","description":"d","thumbnail":"t","currency":"KRW","#
            + #""price":1,"bargain_price":1,"discounted_price":0,"stock":1,"#
            + #""created_at":"2026-01-15T09:30:00Z","issued_at":"2026-01-15T09:30:00Z"}"#
        let dispatcher = OfflineDispatcher(routes: [
            "GET /api/products/7": .json(json),
            "GET /healthChecker": CannedResponse(body: Data("OK".utf8)),
        ])
        let client = APIClient(environment: .local(), dispatcher: dispatcher)

        // WHEN they are sent with no decoding argument
        let product: NetworkResult<Product> = await client.send(ProductAPI.detail(id: 7))
        let health: NetworkResult<String> = await client.send(HealthAPI.check)

        // THEN each decodes as its endpoint declares, and the explicit form still works
        #expect(product.value?.id == 7 && product.value?.vendorId == 2)
        #expect(health.value == "OK")
        let explicit = await client.send(ProductAPI.Route.detail(id: 7), decoding: .json(Product.self, decoder: ProductAPI.decoder))
        #expect(explicit.value == product.value)
    }

    @Test func decoders_AreBuiltOnce() {
        #expect(ProductAPI.decoder === ProductAPI.decoder)
        #expect(ProductAPI.encoder === ProductAPI.encoder)
        #expect(QuestionAPI.decoder === QuestionAPI.decoder)
    }
}
