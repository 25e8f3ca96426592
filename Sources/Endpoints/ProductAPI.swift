#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Networking

/// The open-market product endpoints. Keys are snake_case on the wire.
public enum ProductAPI: Endpoint {
    /// `GET /api/products?page_no=&items_per_page=`
    case list(page: Int, itemsPerPage: Int)
    /// `GET /api/products/{id}`
    case detail(id: Int)
    /// `POST /api/products`, multipart: a `params` JSON part and one `images` part per image.
    case create(vendorIdentifier: String, product: NewProduct, images: [ImageFile])
    /// `PATCH /api/products/{id}`, JSON.
    case update(vendorIdentifier: String, id: Int, changes: ProductUpdate)

    public var path: String {
        switch self {
        case .list, .create: "/api/products"
        case .detail(let id), .update(_, let id, _): "/api/products/\(id)"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .list, .detail: .get
        case .create: .post
        case .update: .patch
        }
    }

    public var headers: [String: String] {
        switch self {
        case .list, .detail: ["Accept": "application/json"]
        case .create(let vendor, _, _), .update(let vendor, _, _):
            ["Accept": "application/json", "identifier": vendor]
        }
    }

    public var body: any RequestBody {
        switch self {
        case .list(let page, let itemsPerPage):
            .query([QueryItem("page_no", String(page)), QueryItem("items_per_page", String(itemsPerPage))])
        case .detail:
            .plain
        case .create(_, let product, let images):
            CreateProductBody(product: product, images: images)
        case .update(_, _, let changes):
            .json(changes, encoder: Self.encoder)
        }
    }

    /// Encodes request models with snake_case keys.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// Decodes responses: snake_case keys, ISO 8601 dates.
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// The multipart body of a new product: encodes `params` when the request is built, so an encoding
/// failure surfaces as a build error instead of a crash.
struct CreateProductBody: RequestBody {
    let product: NewProduct
    let images: [ImageFile]

    func apply(to request: inout URLRequest) throws {
        let params: Data
        do {
            params = try ProductAPI.encoder.encode(product)
        } catch {
            throw RequestBuildError.bodyEncodingFailed(String(describing: error))
        }
        let parts = [MultipartBody.Part.json(name: "params", data: params)]
            + images.map { .file(name: "images", fileName: $0.fileName, mimeType: $0.mimeType, data: $0.data) }
        try MultipartBody(parts).apply(to: &request)
    }
}

/// Typed calls of ``ProductAPI``.
public struct ProductService: Sendable {
    public let client: APIClient
    /// The vendor's identifier, sent as the `identifier` header on every change.
    public let vendorIdentifier: String

    public init(client: APIClient, vendorIdentifier: String) {
        self.client = client
        self.vendorIdentifier = vendorIdentifier
    }

    public func list(page: Int, itemsPerPage: Int, interceptors: [any RequestInterceptor] = []) async
        -> NetworkResult<ProductList>
    {
        await client.send(ProductAPI.list(page: page, itemsPerPage: itemsPerPage),
                          decoding: .json(ProductList.self, decoder: ProductAPI.decoder), interceptors: interceptors)
    }

    public func detail(id: Int, interceptors: [any RequestInterceptor] = []) async -> NetworkResult<Product> {
        await client.send(ProductAPI.detail(id: id),
                          decoding: .json(Product.self, decoder: ProductAPI.decoder), interceptors: interceptors)
    }

    public func create(_ product: NewProduct, images: [ImageFile], interceptors: [any RequestInterceptor] = [])
        async -> NetworkResult<Product>
    {
        await client.send(ProductAPI.create(vendorIdentifier: vendorIdentifier, product: product, images: images),
                          decoding: .json(Product.self, decoder: ProductAPI.decoder), interceptors: interceptors)
    }

    public func update(id: Int, changes: ProductUpdate, interceptors: [any RequestInterceptor] = []) async
        -> NetworkResult<Product>
    {
        await client.send(ProductAPI.update(vendorIdentifier: vendorIdentifier, id: id, changes: changes),
                          decoding: .json(Product.self, decoder: ProductAPI.decoder), interceptors: interceptors)
    }
}
