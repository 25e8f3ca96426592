/// How long a response waits before it is sent, drawn per request: fixed, uniform between two values,
/// or log-normal by its median and sigma (as WireMock's `lognormal` delay: most requests near the median,
/// a long tail of slow ones). Milliseconds throughout.
package enum Latency: Sendable, Equatable {
    case fixed(Int)
    case uniform(Int, Int)
    case lognormal(median: Double, sigma: Double)

    /// The most any draw waits: a minute, like a scenario's `delayMs`.
    package static let maximum = 60_000

    /// Reads the form contracts and the command line share: `200`, `100-500`, `lognormal:80:0.5`.
    package init?(text: String) {
        if text.hasPrefix("lognormal:") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, let median = Double(parts[1]), let sigma = Double(parts[2]),
                  Self.isValid(median: median, sigma: sigma) else { return nil }
            self = .lognormal(median: median, sigma: sigma)
            return
        }
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard bounds.count == text.split(separator: "-", omittingEmptySubsequences: false).count,
              bounds.allSatisfy({ (0...Self.maximum).contains($0) }) else { return nil }
        switch bounds.count {
        case 1: self = .fixed(bounds[0])
        case 2 where bounds[0] <= bounds[1]: self = .uniform(bounds[0], bounds[1])
        default: return nil
        }
    }

    /// The form ``init(text:)`` reads: `200`, `100-500`, `lognormal:80:0.5`.
    package var text: String {
        switch self {
        case .fixed(let milliseconds): "\(milliseconds)"
        case .uniform(let low, let high): "\(low)-\(high)"
        case .lognormal(let median, let sigma):
            "lognormal:\(median.rounded() == median ? String(Int(median)) : String(median)):\(sigma)"
        }
    }

    static func isValid(median: Double, sigma: Double) -> Bool {
        median > 0 && median <= Double(maximum) && sigma >= 0 && sigma <= 5
    }

}

/// A budget of requests per window for an endpoint: past it the server answers 429 with `Retry-After`
/// and the `RateLimit`/`X-RateLimit-*` headers, until the window ends.
package struct RateLimit: Sendable, Equatable {
    package enum Scope: String, Sendable, CaseIterable {
        /// Each `X-Mock-Session` (and the default one) has its own budget.
        case session
        /// One budget for every client.
        case global
    }

    package enum RetryAfterForm: String, Sendable, CaseIterable {
        /// `Retry-After: 12`.
        case seconds
        /// `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT`.
        case date
    }

    package let limit: Int
    package let windowSeconds: Int
    package let scope: Scope
    package let retryAfter: RetryAfterForm
}

/// A cap on a response's bytes per second, and for a named preset the link's latency as well (time to
/// the first byte). Presets from Firefox DevTools' network throttling profiles
/// (`devtools/client/shared/components/throttling/profiles.js`, where 1 Kbps is 1,024 bits per second).
package struct Bandwidth: Sendable, Equatable {
    package let bytesPerSecond: Int
    /// Added to the response's wait; 0 for a plain number.
    package let latencyMs: Int

    /// name → (bytes per second, latency in ms): Regular 2G, Regular 3G, Regular 4G / LTE, Wi-Fi.
    package static let presets: [(name: String, bytesPerSecond: Int, latencyMs: Int)] = [
        ("edge", 250 * 1024 / 8, 300),
        ("3g", 750 * 1024 / 8, 100),
        ("lte", 4 * 1024 * 1024 / 8, 20),
        ("wifi", 30 * 1024 * 1024 / 8, 2),
    ]

    /// Reads `edge`, `3g`, `lte`, `wifi`, or bytes per second (`20000`).
    package init?(text: String) {
        if let preset = Self.presets.first(where: { $0.name == text }) {
            self.init(bytesPerSecond: preset.bytesPerSecond, latencyMs: preset.latencyMs)
        } else if let rate = Int(text), (1...1_000_000_000).contains(rate) {
            self.init(bytesPerSecond: rate, latencyMs: 0)
        } else {
            return nil
        }
    }

    /// The form ``init(text:)`` reads: a preset's name, or bytes per second.
    package var text: String {
        Self.presets.first { $0.bytesPerSecond == bytesPerSecond && $0.latencyMs == latencyMs }?.name ?? "\(bytesPerSecond)"
    }

    package init(bytesPerSecond: Int, latencyMs: Int) {
        self.bytesPerSecond = bytesPerSecond
        self.latencyMs = latencyMs
    }
}

/// A body sent in `pieces` parts spread over `overMs` milliseconds, with `Content-Length` or chunked.
package struct Dribble: Sendable, Equatable {
    package let pieces: Int
    package let overMs: Int
    package let chunked: Bool
}
