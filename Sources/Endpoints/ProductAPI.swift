#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Networking

/// The open-market product endpoints, typed: each call names what its response decodes to, so
/// `client.send(ProductAPI.detail(id: 7))` is a `NetworkResult<Product>`. Keys are snake_case on the wire.
public enum ProductAPI {
    /// The product routes (the Router): path, method, headers and body of each call.
    public enum Route: Endpoint {
        /// `GET /api/products?page_no=&items_per_page=[&category=]`
        case list(page: Int, itemsPerPage: Int, category: String? = nil)
        /// `GET /api/products/{id}`
        case detail(id: Int)
        /// `POST /api/products`, multipart: a `params` JSON part and one `images` part per image.
        case create(vendorIdentifier: String, product: NewProduct, images: [ImageFile])
        /// `PATCH /api/products/{id}`, JSON.
        case update(vendorIdentifier: String, id: Int, changes: ProductUpdate)

        /// The route's path below the base URL.
        public var path: String {
            switch self {
            case .list, .create: "/api/products"
            case .detail(let id), .update(_, let id, _): "/api/products/\(id)"
            }
        }

        /// `GET` to read, `POST` to create, `PATCH` to update.
        public var method: HTTPMethod {
            switch self {
            case .list, .detail: .get
            case .create: .post
            case .update: .patch
            }
        }

        /// `Accept: application/json`, and the vendor's `identifier` on changes.
        public var headers: [String: String] {
            switch self {
            case .list, .detail: ["Accept": "application/json"]
            case .create(let vendor, _, _), .update(let vendor, _, _):
                ["Accept": "application/json", "identifier": vendor]
            }
        }

        /// Paging in the query, a multipart body to create, a snake_case JSON body to update.
        public var body: any RequestBody {
            switch self {
            case .list(let page, let itemsPerPage, let category):
                .query([QueryItem("page_no", String(page)), QueryItem("items_per_page", String(itemsPerPage))]
                    + (category.map { [QueryItem("category", $0)] } ?? []))
            case .detail:
                .plain
            case .create(_, let product, let images):
                CreateProductBody(product: product, images: images)
            case .update(_, _, let changes):
                .json(changes, encoder: ProductAPI.encoder)
            }
        }
    }

    /// One page of products, of one category when `category` is given.
    public static func list(page: Int, itemsPerPage: Int, category: String? = nil) -> Request<ProductList> {
        Request(Route.list(page: page, itemsPerPage: itemsPerPage, category: category),
                decoding: .json(ProductList.self, decoder: decoder))
    }

    /// One product; a 404 (`requestErr`) when there is none with that id.
    public static func detail(id: Int) -> Request<Product> {
        Request(Route.detail(id: id), decoding: .json(Product.self, decoder: decoder))
    }

    /// Creates a product with its images; the server answers the stored product.
    public static func create(vendorIdentifier: String, product: NewProduct, images: [ImageFile]) -> Request<Product> {
        Request(Route.create(vendorIdentifier: vendorIdentifier, product: product, images: images),
                decoding: .json(Product.self, decoder: decoder))
    }

    /// Changes a product; the server answers the changed product.
    public static func update(vendorIdentifier: String, id: Int, changes: ProductUpdate) -> Request<Product> {
        Request(Route.update(vendorIdentifier: vendorIdentifier, id: id, changes: changes),
                decoding: .json(Product.self, decoder: decoder))
    }

    /// Encodes request models with snake_case keys and sorted keys. Built once and shared: do not change it.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// Decodes responses: snake_case keys, ISO 8601 dates. Built once and shared: do not change it.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
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

/// Typed calls of ``ProductAPI`` for one vendor: what a view model calls.
public struct ProductService: Sendable {
    /// The client every call goes through.
    public let client: APIClient
    /// The vendor's identifier, sent as the `identifier` header on every change.
    public let vendorIdentifier: String

    /// - Parameters:
    ///   - client: The client every call goes through.
    ///   - vendorIdentifier: Sent as the `identifier` header when creating or changing a product.
    public init(client: APIClient, vendorIdentifier: String) {
        self.client = client
        self.vendorIdentifier = vendorIdentifier
    }

    /// One page of products, of one category when `category` is given.
    public func list(page: Int, itemsPerPage: Int, category: String? = nil, interceptors: [any RequestInterceptor] = [])
        async -> NetworkResult<ProductList>
    {
        await client.send(ProductAPI.list(page: page, itemsPerPage: itemsPerPage, category: category),
                          interceptors: interceptors)
    }

    /// One product; a 404 (`requestErr`) when there is none with that id.
    public func detail(id: Int, interceptors: [any RequestInterceptor] = []) async -> NetworkResult<Product> {
        await client.send(ProductAPI.detail(id: id), interceptors: interceptors)
    }

    /// Creates a product with its images.
    public func create(_ product: NewProduct, images: [ImageFile], interceptors: [any RequestInterceptor] = [])
        async -> NetworkResult<Product>
    {
        await client.send(ProductAPI.create(vendorIdentifier: vendorIdentifier, product: product, images: images),
                          interceptors: interceptors)
    }

    /// Changes a product's fields; `nil` fields of `changes` stay as they are.
    public func update(id: Int, changes: ProductUpdate, interceptors: [any RequestInterceptor] = []) async
        -> NetworkResult<Product>
    {
        await client.send(ProductAPI.update(vendorIdentifier: vendorIdentifier, id: id, changes: changes),
                          interceptors: interceptors)
    }
}
