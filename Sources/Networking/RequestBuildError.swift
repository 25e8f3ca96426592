/// Why an endpoint could not be turned into a `URLRequest`. Reported as
/// ``NetworkResult/networkFail(_:)`` with ``TransportError/Kind-swift.struct/invalidRequest``,
/// since nothing was sent.
public enum RequestBuildError: Error, Equatable, CustomStringConvertible {
    /// The base URL and path do not form a valid http(s) URL.
    case invalidURL(String)
    /// The method must not carry a body (GET, HEAD); URLSession on Linux would fail with -1103.
    case bodyNotAllowed(method: String)
    /// The fixed multipart boundary occurs inside a part.
    case boundaryCollision(String)
    /// The body's value could not be encoded.
    case bodyEncodingFailed(String)

    static func bodyEncodingFailed(_ error: any Error) -> RequestBuildError {
        .bodyEncodingFailed(String(describing: error))
    }

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL: \(url)"
        case .bodyNotAllowed(let method): "a \(method) request cannot carry a body; send the parameters as .query"
        case .boundaryCollision(let boundary): "multipart boundary \"\(boundary)\" occurs inside a part"
        case .bodyEncodingFailed(let reason): "could not encode the request body: \(reason)"
        }
    }
}
