import Foundation

/// A price's currency.
public enum Currency: String, Codable, Sendable, Hashable {
    case krw = "KRW"
    case usd = "USD"
}

/// One product of the open market. On the wire its keys are snake_case (`vendor_id`).
public struct Product: Codable, Sendable, Hashable, Identifiable {
    public let id: Int
    public let vendorId: Int
    public let name: String
    public let description: String
    public let thumbnail: String
    public let currency: Currency
    public let price: Double
    public let bargainPrice: Double
    public let discountedPrice: Double
    public let stock: Int
    public let createdAt: Date
    public let issuedAt: Date
}

/// One page of products.
public struct ProductList: Codable, Sendable, Hashable {
    public let pageNo: Int
    public let itemsPerPage: Int
    public let totalCount: Int
    public let offset: Int
    public let limit: Int
    public let lastPage: Int
    public let hasNext: Bool
    public let hasPrev: Bool
    public let pages: [Product]
}

/// The fields of a new product, sent as the `params` part of the multipart body.
public struct NewProduct: Codable, Sendable, Hashable {
    public var name: String
    public var description: String
    public var price: Double
    public var currency: Currency
    public var discountedPrice: Double?
    public var stock: Int?
    /// The vendor's password, which the backend requires for every change.
    public var secret: String

    public init(name: String, description: String, price: Double, currency: Currency,
                discountedPrice: Double? = nil, stock: Int? = nil, secret: String) {
        self.name = name
        self.description = description
        self.price = price
        self.currency = currency
        self.discountedPrice = discountedPrice
        self.stock = stock
        self.secret = secret
    }
}

/// The fields to change on a product; `nil` fields are left out and stay as they are.
public struct ProductUpdate: Codable, Sendable, Hashable {
    public var name: String?
    public var description: String?
    public var price: Double?
    public var currency: Currency?
    public var discountedPrice: Double?
    public var stock: Int?
    public var secret: String

    public init(name: String? = nil, description: String? = nil, price: Double? = nil, currency: Currency? = nil,
                discountedPrice: Double? = nil, stock: Int? = nil, secret: String) {
        self.name = name
        self.description = description
        self.price = price
        self.currency = currency
        self.discountedPrice = discountedPrice
        self.stock = stock
        self.secret = secret
    }
}

/// An image to upload with a new product.
public struct ImageFile: Sendable, Hashable {
    public let fileName: String
    public let mimeType: String
    public let data: Data

    public init(fileName: String, mimeType: String, data: Data) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.data = data
    }
}
