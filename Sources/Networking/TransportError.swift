#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Why no usable HTTP response arrived, normalised so that Linux and Darwin agree.
///
/// URLSession reports the same failure with different codes per platform (a body cut short is
/// `-1` on Linux and `-1005` on Darwin); ``kind`` groups them, and ``underlying`` keeps the original.
public struct TransportError: Error, CustomStringConvertible {
    /// A coarse, platform-independent classification.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, for example `timedOut`.
        public let rawValue: String
        /// A kind by name; the common ones are static members.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// Nothing listens there, or the host is unknown or unreachable.
        public static let cannotConnect = Kind(rawValue: "cannotConnect")
        /// The connection was reset, closed before any response, or closed mid-body.
        public static let connectionLost = Kind(rawValue: "connectionLost")
        /// Bytes arrived that are not an HTTP response.
        public static let badResponse = Kind(rawValue: "badResponse")
        /// Nothing arrived within the request's timeout.
        public static let timedOut = Kind(rawValue: "timedOut")
        /// The task or the request was cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
        /// A response arrived, but with a status that is neither 2xx, 4xx nor 5xx (1xx, 3xx).
        public static let unexpectedStatus = Kind(rawValue: "unexpectedStatus")
        /// The endpoint could not be made into a request; nothing was sent.
        public static let invalidRequest = Kind(rawValue: "invalidRequest")
        /// Anything else.
        public static let other = Kind(rawValue: "other")
    }

    /// What kind of failure it was.
    public let kind: Kind
    /// The status, for ``Kind-swift.struct/unexpectedStatus``.
    public let status: Int?
    /// The error as the dispatcher threw it, if any.
    public let underlying: (any Error)?

    /// A failure of `kind`, with the status (for ``Kind-swift.struct/unexpectedStatus``) and the original error.
    public init(kind: Kind, status: Int? = nil, underlying: (any Error)? = nil) {
        self.kind = kind
        self.status = status
        self.underlying = underlying
    }

    /// The kind, then the status and the original error when there are any.
    public var description: String {
        var text = kind.rawValue
        if let status { text += " (status \(status))" }
        if let underlying { text += ": \(underlying)" }
        return text
    }

    /// Classifies any error a dispatcher or interceptor threw.
    public static func classify(_ error: any Error) -> TransportError {
        if let error = error as? TransportError { return error }
        if error is CancellationError { return TransportError(kind: .cancelled, underlying: error) }
        if error is RequestBuildError { return TransportError(kind: .invalidRequest, underlying: error) }
        if let urlError = error as? URLError {
            return TransportError(kind: kind(of: urlError.code), underlying: urlError)
        }
        return TransportError(kind: .other, underlying: error)
    }

    private static func kind(of code: URLError.Code) -> Kind {
        switch code {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            .cannotConnect
        // -1 is how Linux reports "transfer closed with N bytes remaining"; -1011 is its "empty reply".
        case .networkConnectionLost, .unknown, .badServerResponse, .zeroByteResource, .secureConnectionFailed:
            .connectionLost
        // Linux reports a response without a status line as -1002 ("HTTP/0.9 not allowed").
        case .cannotParseResponse, .unsupportedURL:
            .badResponse
        case .timedOut:
            .timedOut
        case .cancelled, .userCancelledAuthentication:
            .cancelled
        case .badURL, .dataLengthExceedsMaximum:
            .invalidRequest
        default:
            .other
        }
    }
}
