import Foundation
import Networking

/// One line of the cart: a product and how many of it.
public struct CartItem: Codable, Sendable, Hashable, Identifiable {
    /// The line's id, assigned by the server.
    public let id: Int
    /// The product on this line.
    public let productId: Int
    /// How many of it.
    public let quantity: Int
}

/// The cart, typed: a collection the server remembers (`/api/cart/items`), answered as bare JSON; every
/// call needs `Authorization: Bearer <token>`, which ``CartService`` adds.
public enum CartAPI {
    /// The cart routes (the Router): path, method, headers and body of each call.
    public enum Route: Endpoint {
        /// `GET /api/cart/items`
        case items
        /// `GET /api/cart/items/{id}`
        case item(id: Int)
        /// `POST /api/cart/items`, body `{productId, quantity}`
        case add(productId: Int, quantity: Int)
        /// `PUT /api/cart/items/{id}`, body `{productId, quantity}`
        case replace(id: Int, productId: Int, quantity: Int)
        /// `PATCH /api/cart/items/{id}`, a JSON Merge Patch `{quantity}`; `ifMatch` sends the item's `ETag`
        /// back, so a change made meanwhile by someone else is a 412 rather than lost.
        case changeQuantity(id: Int, quantity: Int, ifMatch: String? = nil)
        /// `DELETE /api/cart/items/{id}`
        case remove(id: Int, ifMatch: String? = nil)

        /// The route's path below the base URL.
        public var path: String {
            switch self {
            case .items, .add: "/api/cart/items"
            case .item(let id), .replace(let id, _, _), .changeQuantity(let id, _, _), .remove(let id, _):
                "/api/cart/items/\(id)"
            }
        }

        /// REST: `GET`, `POST`, `PUT`, `PATCH`, `DELETE`.
        public var method: HTTPMethod {
            switch self {
            case .items, .item: .get
            case .add: .post
            case .replace: .put
            case .changeQuantity: .patch
            case .remove: .delete
            }
        }

        /// `Accept: application/json`, and `If-Match` when a change names the `ETag` it saw.
        public var headers: [String: String] {
            switch self {
            case .changeQuantity(_, _, let tag?), .remove(_, let tag?): ["Accept": "application/json", "If-Match": tag]
            default: ["Accept": "application/json"]
            }
        }

        /// A JSON body for the calls that send one.
        public var body: any RequestBody {
            switch self {
            case .add(let productId, let quantity), .replace(_, let productId, let quantity):
                .json(NewItem(productId: productId, quantity: quantity))
            case .changeQuantity(_, let quantity, _):
                .json(QuantityPatch(quantity: quantity))
            case .items, .item, .remove:
                .plain
            }
        }
    }

    /// Every item of the cart.
    public static var items: Request<[CartItem]> { Request(Route.items, decoding: .json([CartItem].self)) }

    /// One item; a 404 (`requestErr`) when there is none with that id.
    public static func item(id: Int) -> Request<CartItem> {
        Request(Route.item(id: id), decoding: .json(CartItem.self))
    }

    /// Adds a line; the server assigns its id.
    public static func add(productId: Int, quantity: Int) -> Request<CartItem> {
        Request(Route.add(productId: productId, quantity: quantity), decoding: .json(CartItem.self))
    }

    /// Replaces a line whole.
    public static func replace(id: Int, productId: Int, quantity: Int) -> Request<CartItem> {
        Request(Route.replace(id: id, productId: productId, quantity: quantity), decoding: .json(CartItem.self))
    }

    /// Changes a line's quantity; with `ifMatch`, only if the line is still as that `ETag` saw it.
    public static func changeQuantity(id: Int, quantity: Int, ifMatch: String? = nil) -> Request<CartItem> {
        Request(Route.changeQuantity(id: id, quantity: quantity, ifMatch: ifMatch), decoding: .json(CartItem.self))
    }

    /// Removes a line.
    public static func remove(id: Int, ifMatch: String? = nil) -> Request<Void> {
        Request(Route.remove(id: id, ifMatch: ifMatch), decoding: .empty)
    }

    struct NewItem: Encodable, Sendable { let productId: Int; let quantity: Int }
    struct QuantityPatch: Encodable, Sendable { let quantity: Int }
}

/// Typed calls of ``CartAPI``, each authorised with the current bearer token.
public struct CartService: Sendable {
    /// The client every call goes through.
    public let client: APIClient
    private let auth: BearerTokenInterceptor

    /// - Parameters:
    ///   - client: The client every call goes through.
    ///   - token: Returns the current access token; asked on every call.
    public init(client: APIClient, token: @escaping @Sendable () async throws -> String) {
        self.client = client
        auth = BearerTokenInterceptor(token: token)
    }

    /// Every item of the cart.
    public func items(interceptors: [any RequestInterceptor] = []) async -> NetworkResult<[CartItem]> {
        await client.send(CartAPI.items, interceptors: [auth] + interceptors)
    }

    /// One item; a 404 (`requestErr`) when there is none with that id.
    public func item(id: Int, interceptors: [any RequestInterceptor] = []) async -> NetworkResult<CartItem> {
        await client.send(CartAPI.item(id: id), interceptors: [auth] + interceptors)
    }

    /// Adds a line; the server assigns its id.
    public func add(productId: Int, quantity: Int, interceptors: [any RequestInterceptor] = []) async
        -> NetworkResult<CartItem>
    {
        await client.send(CartAPI.add(productId: productId, quantity: quantity), interceptors: [auth] + interceptors)
    }

    /// Replaces a line whole.
    public func replace(id: Int, productId: Int, quantity: Int, interceptors: [any RequestInterceptor] = []) async
        -> NetworkResult<CartItem>
    {
        await client.send(CartAPI.replace(id: id, productId: productId, quantity: quantity),
                          interceptors: [auth] + interceptors)
    }

    /// Changes a line's quantity; with `ifMatch`, only if the line is still as that `ETag` saw it (else a 412).
    public func changeQuantity(id: Int, quantity: Int, ifMatch: String? = nil,
                               interceptors: [any RequestInterceptor] = []) async -> NetworkResult<CartItem> {
        await client.send(CartAPI.changeQuantity(id: id, quantity: quantity, ifMatch: ifMatch),
                          interceptors: [auth] + interceptors)
    }

    /// Removes a line.
    public func remove(id: Int, ifMatch: String? = nil, interceptors: [any RequestInterceptor] = []) async
        -> NetworkResult<Void>
    {
        await client.send(CartAPI.remove(id: id, ifMatch: ifMatch), interceptors: [auth] + interceptors)
    }
}
