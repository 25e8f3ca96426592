/// Limits and timeouts of the HTTP core, in nanoseconds.
package struct ServerSettings: Sendable {
    package var limits = HTTPLimits()
    /// A request's head must arrive within this of its first byte.
    package var headerTimeout: UInt64 = 10_000_000_000
    /// A request's body must arrive within this of its first byte.
    package var bodyTimeout: UInt64 = 30_000_000_000
    /// A connection may stay silent this long between requests.
    package var idleTimeout: UInt64 = 60_000_000_000
    /// Queued output must make progress within this.
    package var writeTimeout: UInt64 = 30_000_000_000
    /// After the last response and FIN, how long to wait for the peer's FIN before closing.
    package var lingerTimeout: UInt64 = 2_000_000_000
    /// How long a stopping server lets in-flight responses finish.
    package var shutdownGrace: UInt64 = 5_000_000_000
    /// Output queued beyond this pauses the reading of further pipelined requests.
    package var maxQueuedOutput = 4 * 1024 * 1024

    package init() {}

    /// The soonest any timeout can fall after the activity that starts it.
    var shortestTimeout: UInt64 { min(headerTimeout, bodyTimeout, idleTimeout, writeTimeout) }
    /// The soonest a request can time out after its first byte.
    var shortestRequestTimeout: UInt64 { min(headerTimeout, bodyTimeout) }
}
