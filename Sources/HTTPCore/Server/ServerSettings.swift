/// Limits and timeouts of the HTTP core, in nanoseconds.
public struct ServerSettings: Sendable {
    public var limits = HTTPLimits()
    /// A request's head must arrive within this of its first byte.
    public var headerTimeout: UInt64 = 10_000_000_000
    /// A request's body must arrive within this of its first byte.
    public var bodyTimeout: UInt64 = 30_000_000_000
    /// A connection may stay silent this long between requests.
    public var idleTimeout: UInt64 = 60_000_000_000
    /// Queued output must make progress within this.
    public var writeTimeout: UInt64 = 30_000_000_000
    /// After the last response and FIN, how long to wait for the peer's FIN before closing.
    public var lingerTimeout: UInt64 = 2_000_000_000
    /// How long a stopping server lets in-flight responses finish.
    public var shutdownGrace: UInt64 = 5_000_000_000
    /// Output queued beyond this pauses the reading of further pipelined requests.
    public var maxQueuedOutput = 4 * 1024 * 1024

    public init() {}

    /// The soonest any timeout can fall after the activity that starts it.
    var shortestTimeout: UInt64 { min(headerTimeout, bodyTimeout, idleTimeout, writeTimeout) }
    /// The soonest a request can time out after its first byte.
    var shortestRequestTimeout: UInt64 { min(headerTimeout, bodyTimeout) }
}
