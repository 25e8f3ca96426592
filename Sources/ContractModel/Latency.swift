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
