import Endpoints
import Foundation
import Networking

/// What a typed call produced, reduced to what the contract can check.
struct Observation: Sendable, Equatable {
    let caseName: String
    let status: Int?
    let message: String?
    let transportKind: TransportError.Kind?
    /// The decoded success value, for comparison with the fixture.
    let value: AnyHashableSendable?

    init<Value>(_ result: NetworkResult<Value>, value: (Value) -> AnyHashableSendable?) {
        caseName = result.caseName
        switch result {
        case .success(let decoded):
            self.value = value(decoded)
            status = nil
            message = nil
            transportKind = nil
        case .requestErr(let status, let message):
            self.status = status
            self.message = message
            self.value = nil
            transportKind = nil
        case .serverErr(let status):
            self.status = status
            self.message = nil
            self.value = nil
            transportKind = nil
        case .pathErr(let failure):
            status = failure.status
            message = nil
            self.value = nil
            transportKind = nil
        case .networkFail(let error):
            status = error.status
            message = nil
            self.value = nil
            transportKind = error.kind
        }
    }
}

/// A Sendable, hashable box for decoded models (all our models are Hashable and Sendable).
struct AnyHashableSendable: Hashable, @unchecked Sendable {
    // @unchecked: only ever built from values whose types are Sendable (see `init`).
    let base: AnyHashable
    init(_ value: some Hashable & Sendable) { base = AnyHashable(value) }
}

/// How to call one contract endpoint through its typed service, and how to read its fixture.
struct ContractCall: Sendable {
    /// Path and query parameters the call uses, to resolve `products/{id}.json`-style fixtures.
    let parameters: [String: String]
    /// What a template's placeholders (`query.page_no`) become for this call's request.
    var templateValues: [String: String] = [:]
    /// Answered by a resource's store rather than a fixture: a success is checked for a decoded value only.
    var fromStore = false
    let invoke: @Sendable (Services, [any RequestInterceptor]) async -> Observation
    /// Decodes the success fixture the way the typed call decodes a response; `nil` for no value.
    let decodeFixture: @Sendable (Data) throws -> AnyHashableSendable?
}

/// The typed services of the three domains, on one client.
struct Services: Sendable {
    let health: HealthService
    let products: ProductService
    let questions: QuestionService
    let cart: CartService

    init(client: APIClient) {
        health = HealthService(client: client)
        products = ProductService(client: client, vendorIdentifier: "vendor-7")
        questions = QuestionService(client: client) { "contract-test-token" }
        cart = CartService(client: client) { "contract-test-token" }
    }
}

/// Every contract endpoint id mapped to its typed call with valid arguments. A new endpoint needs one
/// line here; a contract endpoint without one fails the suite by name.
enum CallRegistry {
    static let calls: [String: ContractCall] = [
        "healthCheck": call { services, interceptors in await services.health.check(interceptors: interceptors) }
            fixture: { String(decoding: $0, as: UTF8.self) },
        "productList": call(["page_no": "1"], templateValues: ["query.page_no": "1", "query.items_per_page": "20"]) {
            await $0.products.list(page: 1, itemsPerPage: 20, interceptors: $1)
        } fixture: { try ProductAPI.decoder.decode(ProductList.self, from: $0) },
        "productDetail": call(["id": "1"]) { await $0.products.detail(id: 1, interceptors: $1) }
            fixture: { try ProductAPI.decoder.decode(Product.self, from: $0) },
        "productCreate": call { services, interceptors in
            await services.products.create(
                NewProduct(name: "Seoul Night Candle", description: "Soy wax candle, 200g.", price: 25,
                           currency: .usd, stock: 100, secret: "s3cret"),
                images: [ImageFile(fileName: "candle.jpg", mimeType: "image/jpeg", data: Data([0xFF, 0xD8, 0xFF]))],
                interceptors: interceptors)
        } fixture: { try ProductAPI.decoder.decode(Product.self, from: $0) },
        "productUpdate": call(["id": "2"]) { services, interceptors in
            await services.products.update(id: 2, changes: ProductUpdate(price: 84.99, secret: "s3cret"),
                                           interceptors: interceptors)
        } fixture: { try ProductAPI.decoder.decode(Product.self, from: $0) },
        "answerQuestion": call(templateValues: ["body/index": "3", "body/myAnswer": "한강 공원"]) {
            await $0.questions.answer(index: 3, myAnswer: "한강 공원", interceptors: $1)
        } fixture: { try envelope(Question.self, $0) },
        "latestPageNo": call { await $0.questions.latestPageNo(interceptors: $1) }
            fixture: { try envelope(LatestPageNo.self, $0) },
        "question": call(["index": "2"]) { await $0.questions.question(index: 2, interceptors: $1) }
            fixture: { try envelope(Question.self, $0) },
        "questionList": call { await $0.questions.list(pageNo: 1, interceptors: $1) }
            fixture: { try envelope(QuestionPage.self, $0) },
        "todayQuestion": call { await $0.questions.today(interceptors: $1) }
            fixture: { try envelope(Question.self, $0) },
        "pressForAnswer": voidCall { await $0.questions.pressForAnswer(index: 21, interceptors: $1) },
        "cartItems.list": store { await $0.cart.items(interceptors: $1) },
        "cartItems.read": store { await $0.cart.item(id: 1, interceptors: $1) },
        "cartItems.create": store { await $0.cart.add(productId: 5, quantity: 1, interceptors: $1) },
        "cartItems.replace": store { await $0.cart.replace(id: 1, productId: 2, quantity: 3, interceptors: $1) },
        "cartItems.update": store { await $0.cart.changeQuantity(id: 1, quantity: 4, interceptors: $1) },
        "cartItems.delete": voidCall { await $0.cart.remove(id: 2, interceptors: $1) },
    ]

    /// A call answered by a resource's store: no fixture to compare with.
    private static func store<Value: Hashable & Sendable>(
        _ invoke: @escaping @Sendable (Services, [any RequestInterceptor]) async -> NetworkResult<Value>
    ) -> ContractCall {
        ContractCall(parameters: [:], fromStore: true,
                     invoke: { Observation(await invoke($0, $1)) { AnyHashableSendable($0) } },
                     decodeFixture: { _ in nil })
    }

    private static func call<Value: Hashable & Sendable>(
        _ parameters: [String: String] = [:],
        templateValues: [String: String] = [:],
        _ invoke: @escaping @Sendable (Services, [any RequestInterceptor]) async -> NetworkResult<Value>,
        fixture: @escaping @Sendable (Data) throws -> Value
    ) -> ContractCall {
        ContractCall(parameters: parameters, templateValues: templateValues,
                     invoke: { Observation(await invoke($0, $1)) { AnyHashableSendable($0) } },
                     decodeFixture: { AnyHashableSendable(try fixture($0)) })
    }

    private static func voidCall(
        _ invoke: @escaping @Sendable (Services, [any RequestInterceptor]) async -> NetworkResult<Void>
    ) -> ContractCall {
        ContractCall(parameters: [:], invoke: { Observation(await invoke($0, $1)) { _ in nil } },
                     decodeFixture: { _ in nil })
    }

    private static func envelope<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        let decoded = try QuestionAPI.decoder.decode(Envelope<T>.self, from: data)
        guard let payload = decoded.data else { throw EnvelopeError.missingData }
        return payload
    }
}
