/// A transport-level misbehaviour of the mock server, by the name contracts, the journal and the access log
/// give it. Every fault's client result is ``ExpectedResult/networkFail``.
public enum Fault: String, Sendable, Codable, CaseIterable {
    /// Abort the connection with a TCP RST (SO_LINGER 0).
    case connectionReset = "connection_reset"
    /// Close the connection without sending a byte.
    case emptyResponse = "empty_response"
    /// Send bytes that are not an HTTP response, then close.
    case malformedResponse = "malformed_response"
    /// Send a `Content-Length` larger than the bytes that follow, then close.
    case truncatedBody = "truncated_body"
    /// Send nothing and hold the connection open for `holdMs`, then close.
    case noResponse = "no_response"
}
