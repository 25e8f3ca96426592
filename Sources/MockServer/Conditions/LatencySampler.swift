import ContractModel
import HTTPCore

/// Draws each request's extra wait: the scenario's `latency` and the server's `--latency`, added to
/// the scenario's `delayMs`. One generator for the server (SplitMix64), seeded with `--seed` so that a
/// run's n-th draw is the same run after run; without a seed, from the clock.
final class LatencySampler: Sendable {
    private let state: Locked<UInt64>
    private let server: Latency?

    init(server: Latency?, seed: UInt64?) {
        self.server = server
        state = Locked(seed ?? POSIX.monotonicNanoseconds())
    }

    /// The milliseconds to wait for a play with `delayMs` and `latency`, and a condition profile's
    /// `extra` latency, at most ``Latency/maximum``.
    func delay(fixed delayMs: Int, latency: Latency?, extra: Latency? = nil) -> Int {
        guard latency != nil || server != nil || extra != nil else { return delayMs }
        var total = Double(delayMs)
        for latency in [latency, extra, server].compactMap({ $0 }) {
            switch latency {
            case .fixed(let milliseconds):
                total += Double(milliseconds)
            case .uniform(let low, let high):
                total += Double(low) + uniform() * Double(high - low + 1)
            case .lognormal(let median, let sigma):
                total += median * POSIX.exponential(sigma * normal())
            }
        }
        return Int(min(total, Double(Latency.maximum)))
    }

    /// True for `percent` in a hundred draws.
    func chance(_ percent: Double) -> Bool {
        percent > 0 && uniform() * 100 < percent
    }

    /// A uniform number in [0, 1).
    private func uniform() -> Double {
        Double(state.withValue { Self.next(&$0) } >> 11) / Double(UInt64(1) << 53)
    }

    /// A standard normal number (Box–Muller).
    private func normal() -> Double {
        let radius = (-2 * POSIX.naturalLog(1 - uniform())).squareRoot()
        return radius * POSIX.cosine(2 * Double.pi * uniform())
    }

    /// SplitMix64 (Steele, Lea and Flood, 2014).
    private static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
