import ContractModel
import HTTPCore

/// The `latency` a scenario gets from the times its recorded responses took to start (request sent to head
/// read): the time itself for one sample; for several, the log-normal distribution fitted by its logarithms'
/// mean and standard deviation (the maximum-likelihood fit), written as `lognormal:<median>:<sigma>` with the
/// median `exp(mean)` in whole milliseconds and sigma to two decimals. Nothing when the median is under
/// ``floorMs``: what a loopback or LAN hop takes, not the backend's own time.
enum LatencyFit {
    /// Below this median (milliseconds) no latency is written.
    static let floorMs = 5.0

    static func latency(_ milliseconds: [Double]) -> Latency? {
        let samples = milliseconds.filter { $0.isFinite && $0 > 0 }
        guard !samples.isEmpty else { return nil }
        if samples.count == 1 {
            guard samples[0] >= floorMs else { return nil }
            return .fixed(Int(min(samples[0], Double(Latency.maximum)).rounded()))
        }
        let logs = samples.map(POSIX.naturalLog)
        let mean = logs.reduce(0, +) / Double(logs.count)
        var variance = 0.0
        for value in logs { variance += (value - mean) * (value - mean) }
        variance /= Double(logs.count)
        let median = min(POSIX.exponential(mean).rounded(), Double(Latency.maximum))
        let sigma = min((variance.squareRoot() * 100).rounded() / 100, 5)
        guard median >= floorMs else { return nil }
        return sigma == 0 ? .fixed(Int(median)) : .lognormal(median: median, sigma: sigma)
    }
}
