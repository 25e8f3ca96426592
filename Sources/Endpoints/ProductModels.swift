import Foundation

/// A price's currency.
public enum Currency: String, Codable, Sendable, Hashable {
    /// Korean won.
    case krw = "KRW"
    /// US dollar.
    case usd = "USD"
}

/// One product of the open market. On the wire its keys are snake_case (`vendor_id`).
public struct Product: Codable, Sendable, Hashable, Identifiable {
    /// The product's id.
    public let id: Int
    /// The id of the vendor who sells it.
    public let vendorId: Int
    /// Its name.
    public let name: String
    /// Its description.
    public let description: String
    /// The URL of its thumbnail image.
    public let thumbnail: String
    /// The currency of its prices.
    public let currency: Currency
    /// The list price.
    public let price: Double
    /// The price after the discount.
    public let bargainPrice: Double
    /// The discount.
    public let discountedPrice: Double
    /// How many are in stock.
    public let stock: Int
    /// When it was created.
    public let createdAt: Date
    /// When it was put on sale.
    public let issuedAt: Date
}

/// One page of products.
public struct ProductList: Codable, Sendable, Hashable {
    /// This page's number, from 1.
    public let pageNo: Int
    /// The page size asked for.
    public let itemsPerPage: Int
    /// Products in all pages.
    public let totalCount: Int
    /// The index of this page's first product.
    public let offset: Int
    /// The most products a page holds.
    public let limit: Int
    /// The last page's number.
    public let lastPage: Int
    /// Whether a next page exists.
    public let hasNext: Bool
    /// Whether a previous page exists.
    public let hasPrev: Bool
    /// This page's products.
    public let pages: [Product]
}

/// The fields of a new product, sent as the `params` part of the multipart body.
public struct NewProduct: Codable, Sendable, Hashable {
    /// Its name.
    public var name: String
    /// Its description.
    public var description: String
    /// The list price.
    public var price: Double
    /// The currency of its prices.
    public var currency: Currency
    /// The discount.
    public var discountedPrice: Double?
    /// How many are in stock.
    public var stock: Int?
    /// The vendor's password, which the backend requires for every change.
    public var secret: String

    /// A new product; `secret` is the vendor's password.
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
    /// Its name; `nil` leaves it as it is.
    public var name: String?
    /// Its description; `nil` leaves it as it is.
    public var description: String?
    /// The list price; `nil` leaves it as it is.
    public var price: Double?
    /// The currency of its prices; `nil` leaves it as it is.
    public var currency: Currency?
    /// The discount; `nil` leaves it as it is.
    public var discountedPrice: Double?
    /// How many are in stock; `nil` leaves it as it is.
    public var stock: Int?
    /// The vendor's password, which the backend requires for every change.
    public var secret: String

    /// The fields to change; the others stay `nil` and are not sent.
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
    /// The file name sent with the image.
    public let fileName: String
    /// The image's MIME type, such as `image/jpeg`.
    public let mimeType: String
    /// The image's bytes.
    public let data: Data

    /// An image file to upload.
    public init(fileName: String, mimeType: String, data: Data) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.data = data
    }
}
