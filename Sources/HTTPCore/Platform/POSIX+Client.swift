#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Outgoing connections, for a client that relays requests to another server: name resolution, a connect
/// bounded in time, and waiting for a socket with a deadline. Sockets are non-blocking; ``POSIX/read(_:into:)``
/// and ``POSIX/write(_:_:_:)`` move the bytes.
extension POSIX {
    /// Why an outgoing connection could not be made or used.
    public enum ClientError: Error, Equatable {
        /// The name did not resolve (`getaddrinfo`'s message).
        case nameResolution(String)
        /// Every address refused the connection.
        case refused
        /// The deadline passed.
        case timedOut
        /// Any other failure, with the operation and the system's reason.
        case failed(String)
    }

    /// The addresses of `host` (a name or a numeric address, IPv4 or IPv6) for TCP to `port`, in the order
    /// the resolver prefers them. `getaddrinfo` blocks: call it off an event loop.
    public static func resolve(host: String, port: UInt16) -> Result<[SocketAddress], ClientError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = LibC.streamSocketType
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let code = getaddrinfo(name, String(port), &hints, &list)
        guard code == 0, let first = list else {
            return .failure(.nameResolution(String(cString: gai_strerror(code))))
        }
        defer { freeaddrinfo(list) }
        let addresses = sequence(first: first, next: { $0.pointee.ai_next }).compactMap { info in
            info.pointee.ai_addr.flatMap { SocketAddress(info: $0) }
        }
        return addresses.isEmpty ? .failure(.nameResolution("no IPv4 or IPv6 address")) : .success(addresses)
    }

    /// A connected, non-blocking TCP socket to the first of `addresses` that accepts before `deadline`
    /// (monotonic nanoseconds).
    public static func connect(to addresses: [SocketAddress], deadline: UInt64) -> Result<Int32, ClientError> {
        var failure = ClientError.refused
        for address in addresses {
            let fd = LibC.makeClientSocket(family: address.family)
            guard fd >= 0 else { return .failure(.failed("socket: " + reason(errno))) }
            let started = address.withSockaddr { LibC.connectSocket(fd, $0, $1) }
            if started != 0 && errno != EINPROGRESS {
                failure = errno == ECONNREFUSED ? .refused : .failed("connect: " + reason(errno))
                close(fd)
                continue
            }
            if started != 0 {
                if let error = wait(fd, forWriting: true, deadline: deadline) {
                    close(fd)
                    if error == .timedOut { return .failure(.timedOut) }
                    failure = error
                    continue
                }
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                guard code == 0 else {
                    failure = code == ECONNREFUSED ? .refused : .failed("connect: " + reason(code))
                    close(fd)
                    continue
                }
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return .success(fd)
        }
        return .failure(failure)
    }

    /// Waits until `fd` is readable (or writable) or `deadline` (monotonic nanoseconds) passes.
    /// - Returns: `nil` when ready (an error or hang-up counts as ready: the next call reports it).
    public static func wait(_ fd: Int32, forWriting: Bool, deadline: UInt64) -> ClientError? {
        while true {
            let now = monotonicNanoseconds()
            guard now < deadline else { return .timedOut }
            let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            var entry = pollfd(fd: fd, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0)
            let count = poll(&entry, 1, milliseconds)
            if count > 0 { return nil }
            if count < 0 && errno != EINTR { return .failed("poll: " + reason(errno)) }
        }
    }

    /// Waits until `fd` can be written or has something to read (bytes, its end of file, or an error), or the deadline
    /// passes: whether it has something to read.
    public static func waitWritableOrReadable(_ fd: Int32, deadline: UInt64) -> Result<Bool, ClientError> {
        while true {
            let now = monotonicNanoseconds()
            guard now < deadline else { return .failure(.timedOut) }
            let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            var entry = pollfd(fd: fd, events: Int16(POLLIN | POLLOUT), revents: 0)
            let count = poll(&entry, 1, milliseconds)
            if count > 0 { return .success(entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0) }
            if count < 0 && errno != EINTR { return .failure(.failed("poll: " + reason(errno))) }
        }
    }

    /// Whether `fd` has something to read now (bytes, its end of file, or an error), without waiting.
    public static func isReadable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let count = poll(&entry, 1, 0)
            if count >= 0 { return count > 0 }
            if errno != EINTR { return true }
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
