import HTTPCore
import MockServer

/// The reverse proxy to one backend: relays requests on a small pool of threads of its own, returns the
/// backend's responses as a proxy should (hop-by-hop fields removed, `Via` added), and records each exchange
/// when given a ``Recording``. Serves `mock-server record` and `mock-server --proxy`.
public final class UpstreamProxy: UpstreamRelay {
    public let upstream: UpstreamTarget
    /// Seconds to connect, and between two reads of the response (`--upstream-timeout`).
    public let timeout: Double
    public let recording: Recording?
    private let client: UpstreamClient
    private let pool: UpstreamPool

    /// - Parameters:
    ///   - threads: Requests relayed at once; more wait in a queue of `queueLimit`, beyond which they get a 502.
    public init(target: UpstreamTarget, timeout: Double, recording: Recording?, threads: Int = 8, queueLimit: Int = 512) {
        upstream = target
        self.timeout = timeout
        self.recording = recording
        client = UpstreamClient(target: target, timeout: timeout)
        pool = UpstreamPool(threads: threads, queueLimit: queueLimit)
    }

    package var target: String { upstream.url }

    package var timeoutNanoseconds: UInt64 {
        // Connect, send and read each get the timeout; a response that keeps trickling in is not cut off
        // by the connection's safety net before a minute more.
        UInt64(max(0.001, timeout) * 3_000_000_000) + 60_000_000_000
    }

    package func relay(_ request: HTTPRequest, isWanted: @escaping @Sendable () -> Bool,
                       completion: @escaping @Sendable (RelayOutcome) -> Void) {
        let bytes = UpstreamRequest.bytes(for: request, target: upstream, recording: recording != nil)
        let accepted = pool.submit { [client, recording] in
            // Its client left while it waited in the queue: nobody would read the answer.
            guard isWanted() else { return }
            switch client.exchange(bytes, method: request.method) {
            case .success(let response):
                if let recording, let skipped = recording.add(Self.exchange(request, response)) {
                    POSIX.writeLine("mock-server: " + skipped, toStandardError: true)
                }
                completion(.response(Self.relayed(response), announcedLength: Self.announcedLength(request, response)))
            case .failure(let failure):
                completion(.failure(failure.description))
            }
        }
        if !accepted { completion(.failure(UpstreamFailure.overloaded.description)) }
    }

    package func flushRecording() -> RecordingFlush? {
        guard let recording else { return nil }
        let outcome = recording.flush()
        let message = recording.describe(outcome)
        POSIX.writeLine("mock-server: " + message, toStandardError: true)
        switch outcome {
        case .written(let summary, let count):
            return RecordingFlush(succeeded: true, message: message, exchanges: count - summary.skipped.count)
        case .failed(_, let count): return RecordingFlush(succeeded: false, message: message, exchanges: count)
        }
    }

    /// Stops the relay threads once their current request is done.
    public func stop() { pool.stop() }

    // MARK: - Relaying

    /// Fields the server's encoder writes itself for every response, and `Via`, sent on with this hop added.
    private static let replaced: Set<String> = ["content-length", "date", "via"]

    /// The backend's response as the client gets it.
    static func relayed(_ response: UpstreamResponse) -> HTTPResponse {
        let fields = response.fields.map { (name: $0.name, value: $0.value) }
        let status = HTTPStatus(response.status, response.reason.isEmpty ? nil : response.reason)
        return HTTPResponse(status: status,
                            headers: HopByHop.endToEnd(fields, alsoDropping: replaced) + [HopByHop.via(after: fields)],
                            body: response.body)
    }

    /// For HEAD, the body length the backend announced (the server otherwise announces the empty body it has).
    static func announcedLength(_ request: HTTPRequest, _ response: UpstreamResponse) -> Int? {
        guard request.method == "HEAD" else { return nil }
        return response.fields.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value.trimmingSpaces()) }
    }

    /// What the recording keeps of an exchange: the request as the client sent it, the response's end-to-end
    /// fields as the backend sent them (the body is decoded, so its transfer coding is gone too).
    static func exchange(_ request: HTTPRequest, _ response: UpstreamResponse) -> RecordedExchange {
        let responseFields = HopByHop.endToEnd(response.fields.map { (name: $0.name, value: $0.value) })
        return RecordedExchange(
            method: request.method, path: String(request.path), query: request.query.map(String.init),
            requestHeaders: request.headers.fields.map { .init(name: $0.name, value: $0.value) },
            requestBody: request.body, status: response.status,
            responseHeaders: responseFields.map { .init(name: $0.name, value: $0.value) },
            responseBody: response.body)
    }
}
