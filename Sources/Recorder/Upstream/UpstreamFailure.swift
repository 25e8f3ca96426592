/// Why a request got no usable answer from the target: the reason a 502 names.
public enum UpstreamFailure: Error, Equatable, CustomStringConvertible {
    /// The host name did not resolve.
    case nameResolution(String)
    case connectionRefused
    /// No connection, or no (further) byte of the response, within the timeout.
    case timedOut(seconds: Double)
    /// The target reset or closed the connection before a complete response.
    case connectionReset(String)
    /// The bytes were not an HTTP/1.x response.
    case badResponse(String)
    /// Any other socket failure.
    case failed(String)
    /// The proxy's queue is full: more requests wait for the target than it takes.
    case overloaded
    /// The client left while its response was streamed to it: the rest was not read.
    case clientLeft

    public var description: String {
        switch self {
        case .nameResolution(let reason): "DNS: the host name did not resolve (\(reason))"
        case .connectionRefused: "connection refused"
        case .timedOut(let seconds): "timeout: no answer within \(Self.format(seconds)) s (--upstream-timeout)"
        case .connectionReset(let detail): "connection reset: \(detail)"
        case .badResponse(let detail): "bad response: \(detail)"
        case .failed(let detail): "connection failed: \(detail)"
        case .overloaded: "too many requests are waiting for the target"
        case .clientLeft: "the client left while the response was relayed"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
