#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A call's ``NetworkResult`` together with what the response said besides its body: status, headers
/// and final URL, whichever case the result is, and how many requests the call took.
///
/// `requestErr` and `serverErr` keep their headers here, so a `Retry-After` or a `WWW-Authenticate` stays
/// readable; a success gives access to `ETag`, `Link` or `X-Total-Count`.
///
/// ```swift
/// let page = await client.response(for: ProductAPI.list(page: 1, itemsPerPage: 20))
/// if case .success(let products) = page.result {
///     show(products, total: page.headers["X-Total-Count"].flatMap(Int.init))
/// }
/// if case .serverErr = page.result, let wait = page.headers["Retry-After"] { scheduleRefresh(after: wait) }
/// ```
public struct NetworkResponse<Value> {
    /// The mapped outcome, exactly what ``APIClient/send(_:decoding:interceptors:retry:)`` returns.
    public let result: NetworkResult<Value>
    /// The status of the last response, or `nil` when none arrived.
    public let status: Int?
    /// The header fields of the last response; empty when none arrived.
    public let headers: HTTPHeaders
    /// The URL the last response came from (after redirects), or `nil` when none arrived.
    public let url: URL?
    /// How many requests were sent: 1, more after retries or a replay after an authentication refresh,
    /// 0 when the request could not even be built.
    public let attempts: Int

    /// - Parameters:
    ///   - result: The mapped outcome.
    ///   - status: The last response's status, if one arrived.
    ///   - headers: The last response's header fields.
    ///   - url: The last response's URL.
    ///   - attempts: How many requests were sent.
    public init(result: NetworkResult<Value>, status: Int? = nil, headers: HTTPHeaders = HTTPHeaders(),
                url: URL? = nil, attempts: Int) {
        self.result = result
        self.status = status
        self.headers = headers
        self.url = url
        self.attempts = attempts
    }

    /// The value on success, else `nil`.
    public var value: Value? { result.value }

    /// Transforms the success value and keeps everything else.
    public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> NetworkResponse<NewValue> {
        NetworkResponse<NewValue>(result: try result.map(transform), status: status, headers: headers, url: url,
                                  attempts: attempts)
    }
}

extension NetworkResponse: Sendable where Value: Sendable {}
