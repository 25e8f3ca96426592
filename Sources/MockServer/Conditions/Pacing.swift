import ContractModel
import HTTPCore

/// How a body goes out when a scenario (or `--bandwidth`) paces it: parts of `partSize` bytes, one every
/// `interval` nanoseconds, written by the connection's event loop when its timer says so, never by a
/// sleeping thread; so thousands of throttled connections cost no thread each.
struct Pacing {
    let partSize: Int
    let interval: UInt64
    /// Chunked coding instead of `Content-Length` (a dribble may ask for it).
    let chunked: Bool

    /// A bandwidth cap is met with a part every 50 ms: smooth enough for a progress bar, few wake-ups.
    static let bandwidthTick: UInt64 = 50_000_000

    init(_ bandwidth: Bandwidth) {
        partSize = max(1, Int((UInt64(bandwidth.bytesPerSecond) * Self.bandwidthTick) / 1_000_000_000))
        interval = Self.bandwidthTick
        chunked = false
    }

    /// `pieces` parts over `overMs`: the first at once, the last `overMs` later.
    init(_ dribble: Dribble, bodySize: Int) {
        partSize = max(1, (bodySize + dribble.pieces - 1) / dribble.pieces)
        interval = dribble.pieces > 1 ? UInt64(dribble.overMs) * 1_000_000 / UInt64(dribble.pieces - 1) : 1
        chunked = dribble.chunked
    }

    /// The reply that sends `response`'s body at this pace.
    func reply(_ response: HTTPResponse, delayMs: Int, note: Reply.Note) -> Reply {
        let body = ReplyStream(source: PacedBody(response.body, partSize: partSize), limit: partSize, interval: interval,
                               length: chunked ? nil : response.body.count)
        return Reply(.stream(HTTPResponse(status: response.status, head: response.head, body: []), body),
                     delayMs: delayMs, note: note)
    }
}
