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
