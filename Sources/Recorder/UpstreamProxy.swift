import HTTPCore
import MockServer

/// The reverse proxy to one backend: relays requests on a small pool of threads of its own, returns the
/// backend's responses as a proxy should (hop-by-hop fields removed, `Via` added), and records each exchange
/// when given a ``Recording``. Serves `mock-server record` and `mock-server --proxy`. An `https://` target is
/// reached through a ``TLSBridge``.
public final class UpstreamProxy: UpstreamRelay {
    public let upstream: UpstreamTarget
    /// Seconds to connect, and between two reads of the response (`--upstream-timeout`).
    public let timeout: Double
    public let recording: Recording?
    /// The helper that speaks TLS for an `https://` target; stopped with the proxy.
    public let bridge: TLSBridge?
    private let client: UpstreamClient
    private let pool: UpstreamPool
    /// Where uploads are relayed (``relay(_:body:isWanted:completion:)``); more wait in its queue.
    private let uploads: UpstreamPool

    /// - Parameters:
    ///   - threads: Requests relayed at once; more wait in a queue of `queueLimit`, beyond which they get a 502.
    ///   - bridge: The started ``TLSBridge`` for an `https://` target (without one, such a target answers 502).
    public init(target: UpstreamTarget, timeout: Double, recording: Recording?, threads: Int = 8, queueLimit: Int = 512,
                bridge: TLSBridge? = nil) {
        upstream = target
        self.timeout = timeout
        self.recording = recording
        self.bridge = bridge
        // The bridge answers only once it has the whole response, which URLSession reads with an idle timeout
        // of its own: waiting on it needs more room than waiting on the target directly.
        client = bridge.map { UpstreamClient(host: "127.0.0.1", port: $0.port, timeout: timeout * 3 + 5) }
            ?? UpstreamClient(host: target.host, port: target.port, timeout: timeout,
                              keptConnections: Self.keptConnections)
        pool = UpstreamPool(threads: threads, queueLimit: queueLimit)
        uploads = UpstreamPool(threads: Self.uploadThreads, queueLimit: queueLimit)
    }

    package var target: String { upstream.url }

    package var timeoutNanoseconds: UInt64 {
        // Connect, send and read each get the timeout; a response that keeps trickling in is not cut off
        // by the connection's safety net before a minute more.
        UInt64(max(0.001, client.timeout) * 3_000_000_000) + 60_000_000_000
    }

    /// Connections to the target the relay threads keep idle now (the event loops' relays keep theirs apart).
    var idleConnections: Int { client.idle.count }

    /// Not to an `https://` target: the TLS bridge hands over whole requests.
    package var streamsRequestBodies: Bool { !upstream.isSecure }

    package func relay(_ request: HTTPRequest, body: RequestBodyStream?, isWanted: @escaping @Sendable () -> Bool,
                       completion: @escaping @Sendable (RelayOutcome) -> Void) {
        guard let body else { return relay(request, isWanted: isWanted, streamingBodies: true, completion: completion) }
        guard streamsRequestBodies else {
            body.cancel()
            return completion(.failure("a request body passed on as it arrives cannot go through the TLS bridge"))
        }
        let head = UpstreamRequest.bytes(for: request, target: upstream, recording: recording != nil, streamed: body)
        // Blocking on the body's arrival and on the backend's reading, for as long as the client takes: a thread of
        // the uploads' own pool, so slow uploads never hold up the other relays.
        let accepted = uploads.submit { [self] in
            guard isWanted() else { return body.cancel() }
            let uploaded = StreamedBody(keepingUpTo: recording?.maxBodyBytes)
            let streamed = StreamedBody(keepingUpTo: recording?.maxBodyBytes)
            let result = client.exchange(head, body: body, method: request.method, taken: uploaded.keep,
                                         streaming: streaming(streamed, completion: completion))
            var sent = request
            sent.body = uploaded.copy ?? []
            deliver(result, for: sent, streamed: streamed, records: uploaded.copy != nil, completion: completion)
        }
        if !accepted {
            body.cancel()
            completion(.failure(UpstreamFailure.overloaded.description))
        }
    }

    /// ``relay(_:isWanted:completion:)``, choosing whether a large or open-ended body streams on as it arrives
    /// (``RelayOutcome/stream(_:body:)``) or is read whole (the drift check, which compares it).
    package func relay(_ request: HTTPRequest, isWanted: @escaping @Sendable () -> Bool, streamingBodies: Bool,
                       completion: @escaping @Sendable (RelayOutcome) -> Void) {
        if upstream.isSecure && bridge == nil {
            return completion(.failure("an https:// target needs the TLS bridge (\(TLSBridge.executableName))"))
        }
        let bytes = UpstreamRequest.bytes(for: request, target: upstream, recording: recording != nil,
                                          bridgeToken: bridge?.token)
        // On an event loop's thread, a kept connection carries the request from that loop. The TLS bridge answers only
        // once it has the whole response, so its exchanges stay on the pool's threads; so do the drift check's, whose
        // bodies are read whole and compared (long work for a loop).
        if bridge == nil, streamingBodies, let loop = EventLoop.current {
            // Keyed by what the relay holds, so no later proxy at this one's address can inherit it.
            let relay = loop.guest(ObjectIdentifier(client.idle)) {
                LoopRelay(shared: client.idle, timeout: client.timeout, keptLimit: Self.keptConnections)
            }
            let job = LoopRelay.Job(bytes: bytes, method: request.method, streams: Self.streams(length:)) { [self] outcome in
                switch outcome {
                case .response(let response):
                    deliver(.success(response), for: request, streamed: StreamedBody(keepingUpTo: nil),
                            completion: completion)
                case .failure(let failure):
                    deliver(.failure(failure), for: request, streamed: StreamedBody(keepingUpTo: nil),
                            completion: completion)
                case .notSent:
                    relayOnPool(bytes, request, isWanted: isWanted, streamingBodies: streamingBodies, completion: completion)
                case .handOff(let handOff):
                    let accepted = pool.submit { [self] in
                        let streamed = StreamedBody(keepingUpTo: recording?.maxBodyBytes)
                        let result = client.resume(handOff, streaming: streaming(streamed, completion: completion))
                        deliver(result, for: request, streamed: streamed, completion: completion)
                    }
                    if !accepted {
                        POSIX.close(handOff.fd)
                        completion(.failure(UpstreamFailure.overloaded.description))
                    }
                }
            }
            return relay.start(job, on: loop)
        }
        relayOnPool(bytes, request, isWanted: isWanted, streamingBodies: streamingBodies, completion: completion)
    }

    /// Relays on a pool thread, blocking it: connecting, reading a streamed body, the TLS bridge's exchanges.
    private func relayOnPool(_ bytes: [UInt8], _ request: HTTPRequest, isWanted: @escaping @Sendable () -> Bool,
                             streamingBodies: Bool, completion: @escaping @Sendable (RelayOutcome) -> Void) {
        let accepted = pool.submit { [self] in
            // Its client left while it waited in the queue: nobody would read the answer.
            guard isWanted() else { return }
            let streamed = StreamedBody(keepingUpTo: recording?.maxBodyBytes)
            // A large or open-ended body goes on as it arrives, at the client's pace (the TLS bridge hands over whole
            // responses, so its are read whole).
            let streaming = bridge != nil || !streamingBodies ? nil : streaming(streamed, completion: completion)
            deliver(client.exchange(bytes, method: request.method, streaming: streaming), for: request, streamed: streamed,
                    completion: completion)
        }
        if !accepted { completion(.failure(UpstreamFailure.overloaded.description)) }
    }

    /// Whether a body of the announced length (`nil`: chunked, or until the close) streams on as it arrives.
    private static func streams(length: Int?) -> Bool {
        length.map { $0 > streamingThreshold } ?? true
    }

    /// Has a large or open-ended body stream on to the client: the head is relayed at once, and each part of the body
    /// follows at the client's pace (kept in `streamed` for the recording while it fits).
    private func streaming(_ streamed: StreamedBody, completion: @escaping @Sendable (RelayOutcome) -> Void)
        -> UpstreamClient.Streaming {
        { head, length in
            guard Self.streams(length: length) else { return nil }
            let stream = ReplyStream(limit: Self.streamedQueueBytes, length: length, endsWhenStopping: false)
            streamed.stream = stream
            completion(.stream(Self.relayed(head), body: stream))
            return { bytes in
                streamed.keep(bytes)
                return stream.sendWaiting(bytes)
            }
        }
    }

    /// Hands the exchange's outcome to `completion`, recording it when this proxy records.
    /// - Parameter records: `false` when the request's body exceeded `--max-record-bytes`: the exchange is relayed, not
    ///   recorded.
    private func deliver(_ result: Result<UpstreamResponse, UpstreamFailure>, for request: HTTPRequest,
                         streamed: StreamedBody, records: Bool = true,
                         completion: @escaping @Sendable (RelayOutcome) -> Void) {
        let recording = records ? recording : nil
        if !records, case .success = result, let limit = self.recording?.maxBodyBytes {
            POSIX.writeLine("mock-server: \(request.method) \(request.path): not recorded, its request body exceeds "
                + "--max-record-bytes \(limit) (it was relayed intact)", toStandardError: true)
        }
        switch result {
        case .success(let response) where response.streamed:
            streamed.stream?.finish()
            guard let recording else { return }
            guard let body = streamed.copy else {
                return POSIX.writeLine("mock-server: \(request.method) \(request.path): not recorded, its response body "
                    + "exceeds --max-record-bytes \(recording.maxBodyBytes) (it was relayed intact)", toStandardError: true)
            }
            var whole = response
            whole.body = body
            if let skipped = recording.add(Self.exchange(request, whole)) {
                POSIX.writeLine("mock-server: " + skipped, toStandardError: true)
            }
        case .failure(let failure) where streamed.stream != nil:
            // The head went out already: the client sees the body cut short by a reset, as from the backend.
            streamed.stream?.reset()
            if failure != .clientLeft {
                POSIX.writeLine("mock-server: \(request.method) \(request.path): the backend's body broke off: \(failure)",
                                toStandardError: true)
            }
        case .success(let response) where bridge != nil && Self.bridgeFailure(response) != nil:
            completion(.failure(Self.bridgeFailure(response) ?? ""))
        case .failure(let failure) where bridge?.exit != nil:
            let exit = bridge?.exit ?? "ended"
            completion(.failure("the TLS bridge \(TLSBridge.executableName) \(exit) (\(failure)); restart mock-server"))
        case .success(let response):
            if let recording, let skipped = recording.add(Self.exchange(request, response)) {
                POSIX.writeLine("mock-server: " + skipped, toStandardError: true)
            }
            completion(.response(Self.relayed(response), announcedLength: Self.announcedLength(request, response)))
        case .failure(let failure):
            completion(.failure(failure.description))
        }
    }

    package func flushRecording() -> RecordingFlush? {
        guard let recording else { return nil }
        let outcome = recording.flush()
        let message = recording.describe(outcome)
        if recording.reportsJSON {
            POSIX.writeLine(recording.describeJSON(outcome), toStandardError: false)
        } else {
            POSIX.writeLine("mock-server: " + message, toStandardError: true)
        }
        switch outcome {
        case .written(_, let count): return RecordingFlush(succeeded: true, message: message, exchanges: count)
        case .failed(_, let count): return RecordingFlush(succeeded: false, message: message, exchanges: count)
        }
    }

    /// Stops the relay threads once their current request is done, and the TLS bridge. (What the event loops relay
    /// ends with them.)
    public func stop() {
        pool.stop()
        uploads.stop()
        bridge?.stop()
    }

    // MARK: - Relaying

    /// Connections to the target kept open between requests, by the blocking client and by each event loop's
    /// ``LoopRelay``: as many as may be in flight under a day's load (nginx's `keepalive 32` per worker is the usual
    /// advice); past it, the oldest closes.
    static let keptConnections = 64

    /// A body larger than this (or of no announced length) streams on as it arrives, rather than being read whole.
    static let streamingThreshold = 1 << 20
    /// Uploads relayed at once (``uploads``).
    static let uploadThreads = 4
    /// What a streamed body may hold in memory waiting for its client, besides the sockets' buffers.
    static let streamedQueueBytes = 256 * 1024

    /// A streamed response's stream, and a copy of its body for the recording while that fits `--max-record-bytes`;
    /// for an upload, the copy of the request's body alone (no stream).
    private final class StreamedBody {
        var stream: ReplyStream?
        private let limit: Int?
        /// `nil` once past the limit, or when nothing records.
        private(set) var copy: [UInt8]?

        init(keepingUpTo limit: Int?) {
            self.limit = limit
            copy = limit == nil ? nil : []
        }

        func keep(_ bytes: [UInt8]) {
            guard let limit, copy != nil else { return }
            if (copy?.count ?? 0) + bytes.count > limit { copy = nil } else { copy? += bytes }
        }
    }

    /// Fields the server's encoder writes itself for every response, and `Via`, sent on with this hop added.
    private static let replaced: Set<String> = ["content-length", "date", "via"]
    /// ``replaced`` in a fixed order, for comparing in place.
    private static let replacedNames = replaced.sorted()

    /// The backend's response as the client gets it.
    static func relayed(_ response: UpstreamResponse) -> HTTPResponse {
        let status = HTTPStatus(response.status, response.reason.isEmpty ? nil : response.reason)
        // Written from the lines as the target sent them, when it sent them: no `String` per field.
        if let lines = response.sentLines, let head = HopByHop.relayedHead(status, lines, alsoDropping: replacedNames) {
            return HTTPResponse(status: status, head: head, body: response.body)
        }
        let fields = response.fields.map { (name: $0.name, value: $0.value) }
        return HTTPResponse(status: status,
                            headers: HopByHop.endToEnd(fields, alsoDropping: replaced) + [HopByHop.via(after: fields)],
                            body: response.body)
    }

    /// The reason the TLS bridge gives when it got no response from the target.
    static func bridgeFailure(_ response: UpstreamResponse) -> String? {
        guard response.status == 502 else { return nil }
        return response.fields.first { HTTPHeaders.equal($0.name, BridgeFailure.field) }?.value
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
            method: request.method.rawValue, path: String(request.path), query: request.query.map(String.init),
            requestHeaders: request.headers.fields.map { .init(name: $0.name, value: $0.value) },
            requestBody: request.body, status: response.status,
            responseHeaders: responseFields.map { .init(name: $0.name, value: $0.value) },
            responseBody: response.body, headMs: response.headMs)
    }
}
