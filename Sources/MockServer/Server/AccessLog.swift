import HTTPCore

/// One line per request on standard output: text for people, JSON lines for tools, or nothing. Lines go
/// through `LogWriter`, so a stalled reader never stalls the server.
public struct AccessLog: Sendable {
    /// How requests are logged.
    public enum Format: String, Sendable, CaseIterable {
        /// A line for people: time, method, target, status (or fault), scenario, bytes, duration.
        case text
        /// One JSON object per line, for tools; standard output then carries only JSON.
        case json
        /// No access log.
        case off
    }

    /// How each request is written.
    public let format: Format

    /// A log writing each request as `format` says.
    public init(format: Format) { self.format = format }

    struct Line: Encodable {
        let time: String
        let method: RequestMethod
        let target: String
        let status: Int?
        let fault: String?
        let scenario: String?
        let bytes: Int
        let durationMs: Double
        let reason: String?
        /// Passed through to the backend (`--proxy`, `record`).
        let proxied: Bool?
    }

    /// - Parameter started: When the request arrived (monotonic), for the duration; read only when logging.
    package func write(request: HTTPRequest, reply: Reply, bytes: Int, started: UInt64?) {
        guard format != .off else { return }
        let (method, target, status) = (request.method, request.target, reply.status)
        let (scenario, reason) = (reply.note.source, reply.note.reason)
        var (fault, proxied): (String?, Bool) = (nil, false)
        switch reply.note.outcome {
        case .fault(let name)?: fault = name
        case .relayed?: proxied = true
        case nil: break
        }
        let durationNanoseconds = started.map { POSIX.monotonicNanoseconds() - $0 } ?? 0
        let (seconds, milliseconds) = POSIX.wallClock()
        let time = HTTPDate.iso8601(seconds: seconds, milliseconds: milliseconds)
        let durationMs = Double(durationNanoseconds / 1_000) / 1_000
        switch format {
        case .text:
            let outcome = status.map(String.init) ?? fault ?? "-"
            let why = reason.map { " (\($0))" } ?? ""
            LogWriter.shared.write("\(time) \(method) \(target) \(outcome) \(scenario ?? "-") \(bytes)B \(durationMs)ms\(why)")
        case .json:
            let line = Line(time: time, method: method, target: target, status: status, fault: fault,
                            scenario: scenario, bytes: bytes, durationMs: durationMs, reason: reason,
                            proxied: proxied ? true : nil)
            LogWriter.shared.write(String(decoding: ServerJSON.encode(line), as: UTF8.self))
        case .off:
            break
        }
    }
}
