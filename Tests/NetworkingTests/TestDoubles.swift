#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
@testable import Networking

/// A thread-safe list that test closures append to.
final class Recorder<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `items` is only touched while holding `lock`.
    private let lock = NSLock()
    private var items: [Element] = []
    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }
}

/// Answers the n-th request with the n-th step (the last one repeats), recording every request.
func scripted(_ steps: [@Sendable (URLRequest) throws -> CannedResponse]) -> OfflineDispatcher {
    let counter = Counter()
    return OfflineDispatcher { request in
        let index = min(counter.next() - 1, steps.count - 1)
        return try steps[index](request)
    }
}

/// A canned response as a script step.
func answer(_ status: Int, headers: [String: String] = [:], body: String = "") -> @Sendable (URLRequest) throws
    -> CannedResponse
{
    { _ in CannedResponse(status: status, headers: headers, body: Data(body.utf8)) }
}

/// A transport failure as a script step.
func fail(_ code: URLError.Code) -> @Sendable (URLRequest) throws -> CannedResponse {
    { _ in throw URLError(code) }
}

extension RetryTiming {
    /// No real waiting: records each wait, draws the top of every jitter range, and reads a fixed clock.
    static func recording(_ waits: Recorder<TimeInterval>, now: Date = Date(timeIntervalSince1970: 1_000_000))
        -> RetryTiming
    {
        RetryTiming(now: { now }, sleep: { waits.append($0) }, random: { $0.upperBound })
    }
}

/// A dispatcher that ignores cancellation and answers nothing for 5 s, as FoundationNetworking does on a 401
/// with a Basic challenge (there, forever; here it gives up in the end, so the suite leaves no task behind
/// for the leak checker).
struct DeafDispatcher: NetworkDispatcher {
    let started = Signal()
    func dispatch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        await started.fire()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) { continuation.resume() }
        }
        throw URLError(.unknown)
    }
}
