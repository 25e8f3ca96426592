import HTTPCore

/// One request to the target and its response, blocking the calling thread (a pool thread, never an event
/// loop): resolve, connect, write, read, each bounded by the timeout. A fresh connection per request keeps it
/// simple and leaves nothing open between requests.
struct UpstreamClient: Sendable {
    /// Where to connect: the target, or the TLS bridge on loopback.
    let host: String
    let port: UInt16
    /// Seconds allowed to connect, and between any two reads of the response.
    let timeout: Double

    func exchange(_ bytes: [UInt8], method: HTTPRequest.Method) -> Result<UpstreamResponse, UpstreamFailure> {
        let addresses: [SocketAddress]
        switch POSIX.resolve(host: host, port: port) {
        case .success(let found): addresses = found
        case .failure(let error): return .failure(Self.failure(error, timeout: timeout))
        }
        let fd: Int32
        switch POSIX.connect(to: addresses, deadline: deadline()) {
        case .success(let connected): fd = connected
        case .failure(let error): return .failure(Self.failure(error, timeout: timeout))
        }
        defer { POSIX.close(fd) }
        let started = POSIX.monotonicNanoseconds()
        if let failure = send(bytes, on: fd) { return .failure(failure) }
        return receive(on: fd, method: method, started: started)
    }

    private func deadline() -> UInt64 {
        POSIX.monotonicNanoseconds() + UInt64(max(0.001, timeout) * 1_000_000_000)
    }

    private func send(_ bytes: [UInt8], on fd: Int32) -> UpstreamFailure? {
        var offset = 0
        var until = deadline()
        while offset < bytes.count {
            let result = bytes[offset...].withUnsafeBytes { POSIX.write(fd, $0, nil) }
            switch result {
            case .bytes(let count):
                offset += count
                until = deadline()
            case .wouldBlock:
                if let error = POSIX.wait(fd, forWriting: true, deadline: until) { return Self.failure(error, timeout: timeout) }
            case .closed:
                return .connectionReset("the connection closed while the request was sent")
            }
        }
        return nil
    }

    /// - Parameter started: When the request's first byte was sent (monotonic), for ``UpstreamResponse/headMs``.
    private func receive(on fd: Int32, method: HTTPRequest.Method, started: UInt64)
        -> Result<UpstreamResponse, UpstreamFailure> {
        var reader = UpstreamResponseReader(requestMethod: method)
        var headMs: Double?
        func timed(_ response: UpstreamResponse) -> UpstreamResponse {
            var response = response
            response.headMs = headMs ?? Double(POSIX.monotonicNanoseconds() - started) / 1_000_000
            return response
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var until = deadline()
        while true {
            let result = chunk.withUnsafeMutableBytes { POSIX.read(fd, into: $0) }
            do {
                switch result {
                case .bytes(let count):
                    until = deadline()
                    let response = try reader.feed(chunk[0..<count])
                    if headMs == nil && reader.hasHead {
                        headMs = Double(POSIX.monotonicNanoseconds() - started) / 1_000_000
                    }
                    if let response { return .success(timed(response)) }
                case .wouldBlock:
                    if let error = POSIX.wait(fd, forWriting: false, deadline: until) {
                        return .failure(Self.failure(error, timeout: timeout))
                    }
                case .closed:
                    return .success(timed(try reader.finish()))
                }
            } catch {
                return .failure(error)
            }
        }
    }

    private static func failure(_ error: POSIX.ClientError, timeout: Double) -> UpstreamFailure {
        switch error {
        case .nameResolution(let reason): .nameResolution(reason)
        case .refused: .connectionRefused
        case .timedOut: .timedOut(seconds: timeout)
        case .failed(let reason): .failed(reason)
        }
    }
}
