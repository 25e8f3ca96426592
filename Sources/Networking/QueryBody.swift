#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One `name=value` pair of a query string or form. A `nil` value is sent as the bare name.
public struct QueryItem: Sendable, Hashable {
    /// The name, not percent-encoded.
    public let name: String
    /// The value, not percent-encoded; `nil` for a bare name.
    public let value: String?

    /// A pair; `nil` sends the bare name.
    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }

    /// A dictionary's pairs sorted by name, so the same parameters always encode the same way.
    static func sorted(_ parameters: [String: String]) -> [QueryItem] {
        parameters.sorted { $0.key < $1.key }.map { QueryItem($0.key, $0.value) }
    }
}

/// Parameters appended to the URL's query string, strictly percent-encoded.
///
/// Order is kept as given; the dictionary initializer sorts by name so that the same parameters
/// always produce the same URL (useful for caches and for tests). Existing query items of the
/// endpoint's path are kept in front.
public struct QueryBody: RequestBody {
    /// The parameters, in the order they are sent.
    public let items: [QueryItem]

    /// Parameters in the given order.
    public init(_ items: [QueryItem]) { self.items = items }

    /// Parameters from a dictionary, sorted by name.
    public init(_ parameters: [String: String]) { items = QueryItem.sorted(parameters) }

    /// Appends the parameters to the URL's query.
    /// - Throws: ``RequestBuildError/invalidURL(_:)`` when the result is not a URL.
    public func apply(to request: inout URLRequest) throws {
        guard !items.isEmpty else { return }
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { throw RequestBuildError.invalidURL(request.url?.absoluteString ?? "") }
        let encoded = PercentEncoding.encodePairs(items, spaceAsPlus: false)
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + encoded
        } else {
            components.percentEncodedQuery = encoded
        }
        guard let newURL = components.url else { throw RequestBuildError.invalidURL(encoded) }
        request.url = newURL
    }
}

/// Parameters as an `application/x-www-form-urlencoded` body (spaces as `+`).
public struct FormBody: RequestBody {
    /// The fields, in the order they are sent.
    public let items: [QueryItem]

    /// Fields in the given order.
    public init(_ items: [QueryItem]) { self.items = items }

    /// Fields from a dictionary, sorted by name.
    public init(_ fields: [String: String]) { items = QueryItem.sorted(fields) }

    /// Sets the encoded body and its `Content-Type`.
    public func apply(to request: inout URLRequest) throws {
        request.httpBody = Data(PercentEncoding.encodePairs(items, spaceAsPlus: true).utf8)
        request.setValue("application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
    }
}

extension RequestBody where Self == QueryBody {
    /// Parameters in the URL's query, in the given order.
    public static func query(_ items: [QueryItem]) -> QueryBody { QueryBody(items) }
    /// Parameters in the URL's query, sorted by name.
    public static func query(_ parameters: [String: String]) -> QueryBody { QueryBody(parameters) }
}

extension RequestBody where Self == FormBody {
    /// Fields as a form-urlencoded body, in the given order.
    public static func form(_ items: [QueryItem]) -> FormBody { FormBody(items) }
    /// Fields as a form-urlencoded body, sorted by name.
    public static func form(_ fields: [String: String]) -> FormBody { FormBody(fields) }
}
