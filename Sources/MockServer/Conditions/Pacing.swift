import ContractModel
import HTTPCore

/// How a body goes out when a scenario (or `--bandwidth`) paces it: parts of `partSize` bytes, one every
/// `interval` nanoseconds, written by the connection's event loop when its timer says so, never by a
/// sleeping thread; so thousands of throttled connections cost no thread each.
struct Pacing {
    let pieces: Int
    let interval: UInt64
    /// Chunked coding instead of `Content-Length` (a dribble may ask for it).
    let chunked: Bool

    /// A bandwidth cap is met with a part every 50 ms, or a byte at a time under 20 bytes a second: smooth
    /// enough for a progress bar, few wake-ups.
    static let bandwidthTick: UInt64 = 50_000_000

    init(_ bandwidth: Bandwidth, bodySize: Int) {
        let rate = UInt64(bandwidth.bytesPerSecond)
        let partSize = max(1, rate * Self.bandwidthTick / 1_000_000_000)
        pieces = max(1, (bodySize + Int(partSize) - 1) / Int(partSize))
        interval = partSize * 1_000_000_000 / rate
        chunked = false
    }

    /// `pieces` parts (no more than the body has bytes) over `overMs`: the first at once, the last `overMs` later.
    init(_ dribble: Dribble, bodySize: Int) {
        pieces = max(1, min(dribble.pieces, bodySize))
        interval = pieces > 1 ? UInt64(dribble.overMs) * 1_000_000 / UInt64(pieces - 1) : 0
        chunked = dribble.chunked
    }

    /// The reply that sends `response`'s body at this pace.
    func reply(_ response: HTTPResponse, delayMs: Int, note: Reply.Note) -> Reply {
        let size = response.body.count
        let body = ReplyStream(source: PacedBody(response.body, pieces: pieces), limit: size / pieces + 1,
                               interval: interval, length: chunked ? nil : size)
        return Reply(.stream(HTTPResponse(status: response.status, head: response.head, body: []), body),
                     delayMs: delayMs, note: note)
    }
}
