/// How the TLS bridge (`mock-server-tls`) tells `mock-server` that it got no response from the HTTPS target:
/// a 502 carrying this field, whose value is the reason. `mock-server` turns it into its own 502 naming the
/// target, so the failure is neither recorded nor mistaken for the backend's own 502.
public enum BridgeFailure {
    public static let field = "X-Mock-Bridge-Failure"
    /// The field `mock-server` sends the bridge the token it started it with. The bridge listens on loopback,
    /// where any process and any web page that rebinds its DNS name to 127.0.0.1 can reach it; without the
    /// token it relays nothing. Never sent on to the target.
    public static let tokenField = "X-Mock-Bridge-Token"
}
