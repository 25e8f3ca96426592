/// The outcome of one API call: a value, or one of four kinds of failure.
///
/// Every outcome maps onto exactly one case (DESIGN.md §3):
///
/// | what happened | case |
/// | --- | --- |
/// | 2xx whose body decodes | ``success(_:)`` |
/// | 2xx whose body does not decode | ``pathErr(_:)`` |
/// | 4xx | ``requestErr(status:message:)`` |
/// | 5xx | ``serverErr(status:)`` |
/// | no HTTP response, or any other status | ``networkFail(_:)`` |
///
/// ```swift
/// switch await products.detail(id: 7) {
/// case .success(let product): show(product)
/// case .requestErr(_, let message): showAlert(message)
/// case .pathErr: showAlert("Please update the app.")
/// case .serverErr: showAlert("Try again later.")
/// case .networkFail(let error) where error.kind == .cancelled: break
/// case .networkFail: showOfflineBanner()
/// }
/// ```
public enum NetworkResult<Value> {
    /// A 2xx response whose body decoded as the endpoint's response type.
    case success(Value)
    /// A 4xx response, with the server's message: the envelope's `responseMsg` (or `message`) when
    /// the body is an envelope, else the body text.
    case requestErr(status: Int, message: String)
    /// A 2xx response whose body did not decode: the contract between app and server is broken.
    case pathErr(DecodingFailure)
    /// A 5xx response.
    case serverErr(status: Int)
    /// No usable HTTP response at all.
    case networkFail(TransportError)

    /// The value on success, else `nil`.
    public var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The case's name: `success`, `requestErr`, `pathErr`, `serverErr` or `networkFail`, as written
    /// in contract files' `expect` field.
    public var caseName: String {
        switch self {
        case .success: "success"
        case .requestErr: "requestErr"
        case .pathErr: "pathErr"
        case .serverErr: "serverErr"
        case .networkFail: "networkFail"
        }
    }

    /// Transforms the success value and keeps every failure as it is.
    public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> NetworkResult<NewValue> {
        switch self {
        case .success(let value): .success(try transform(value))
        case .requestErr(let status, let message): .requestErr(status: status, message: message)
        case .pathErr(let failure): .pathErr(failure)
        case .serverErr(let status): .serverErr(status: status)
        case .networkFail(let error): .networkFail(error)
        }
    }
}

extension NetworkResult: Sendable where Value: Sendable {}

/// Why a 2xx body did not decode as the expected type.
public struct DecodingFailure: Error, CustomStringConvertible {
    /// The HTTP status of the response.
    public let status: Int
    /// The error thrown by the decoder.
    public let underlying: any Error
    /// The body that failed to decode.
    public let body: [UInt8]

    /// A failure of `body`, answered with `status`, that the decoder rejected with `underlying`.
    public init(status: Int, underlying: any Error, body: [UInt8]) {
        self.status = status
        self.underlying = underlying
        self.body = body
    }

    /// `status N: <decoder error>`.
    public var description: String { "status \(status): \(underlying)" }
}
