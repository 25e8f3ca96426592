#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's mathematics, for the few places that need more than arithmetic (latency draws).
extension POSIX {
    public static func naturalLog(_ x: Double) -> Double { log(x) }
    public static func exponential(_ x: Double) -> Double { exp(x) }
    public static func cosine(_ x: Double) -> Double { cos(x) }
}
