#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sockets and pipes: non-blocking, close-on-exec, and never a source of SIGPIPE.
extension POSIX {
    /// A non-blocking TCP listener bound to `host:port` (IPv4 or IPv6; `::` is dual-stack where the
    /// system allows). `port` 0 picks a free port.
    public static func makeListener(host: String, port: UInt16, backlog: Int32) throws(SocketError) -> Int32 {
        let address = try SocketAddress(host: host, port: port)
        let fd = LibC.makeStreamSocket(family: address.family)
        guard fd >= 0 else { throw .failed("socket") }
        setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if address.isIPv6Wildcard { setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0) }
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let error = SocketError.failed("bind to \(SocketError.display(host: host, port: port))")
            close(fd)
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let error = SocketError.failed("listen")
            close(fd)
            throw error
        }
        do {
            try setNonBlocking(fd)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The port a socket is bound to.
    public static func boundPort(_ fd: Int32) -> UInt16 {
        SocketAddress.boundPort(of: fd)
    }

    public enum AcceptResult {
        case accepted(Int32)
        case wouldBlock
        /// Out of file descriptors; the caller sheds the pending connection.
        case exhausted
        case failed(SocketError)
    }

    /// Accepts one pending connection as a non-blocking, no-delay socket.
    public static func accept(_ listener: Int32) -> AcceptResult {
        while true {
            let fd = LibC.acceptConnection(listener)
            if fd >= 0 {
                // Headers and body go out in one write, but pipelined responses must not wait for a
                // delayed ACK (40 ms per response on keep-alive otherwise).
                setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
                return .accepted(fd)
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted
            default: return .failed(.failed("accept"))
            }
        }
    }

    public static func setNonBlocking(_ fd: Int32) throws(SocketError) {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw .failed("fcntl") }
    }

    /// Whether `fd` is closed in child processes (FD_CLOEXEC).
    public static func isCloseOnExec(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFD, 0)
        return flags >= 0 && flags & FD_CLOEXEC != 0
    }

    public enum IOResult: Equatable {
        case bytes(Int)
        case wouldBlock
        /// The peer closed its side (read) or the connection is gone (write).
        case closed
    }

    /// Reads into `buffer`'s free capacity; never blocks.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .closed
            }
        }
    }

    /// Writes `first` and then `second` in one call, gathering them without copying.
    public static func write(_ fd: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?) -> IOResult {
        var vectors = (
            iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
            iovec(iov_base: UnsafeMutableRawPointer(mutating: second?.baseAddress), iov_len: second?.count ?? 0))
        return withUnsafeMutableBytes(of: &vectors) { raw in
            guard let base = raw.baseAddress else { return .closed }
            return send(fd, base.assumingMemoryBound(to: iovec.self), count: second == nil ? 1 : 2)
        }
    }

    /// Writes `parts` in order in one call, gathering them without copying (at most `IOV_MAX` of them).
    public static func write(_ fd: Int32, _ parts: UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: parts.count) { vectors in
            guard let base = vectors.baseAddress else { return .bytes(0) }
            for (index, part) in parts.enumerated() {
                vectors.initializeElement(at: index, to: iovec(iov_base: UnsafeMutableRawPointer(mutating: part.baseAddress),
                                                               iov_len: part.count))
            }
            defer { vectors.deinitialize() }
            return send(fd, base, count: parts.count)
        }
    }

    /// One gathered send of `count` vectors, retried when a signal interrupts it.
    private static func send(_ fd: Int32, _ vectors: UnsafeMutablePointer<iovec>, count: Int) -> IOResult {
        while true {
            let written = LibC.sendVectors(fd, vectors, count)
            if written >= 0 { return .bytes(written) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .closed
            }
        }
    }

    /// Closes so that the peer sees a TCP RST instead of an orderly FIN.
    public static func abort(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }

    /// Sends FIN after the queued bytes; the peer then reads end-of-stream.
    public static func shutdownWrite(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
    }

    public static func close(_ fd: Int32) {
        _ = LibC.closeDescriptor(fd)
    }

    /// A non-blocking, close-on-exec self-pipe: `(read end, write end)`, used to wake an event loop.
    public static func makeWakePipe() throws(SocketError) -> (Int32, Int32) {
        guard let ends = LibC.makePipe() else { throw .failed("pipe") }
        return ends
    }

    public static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = LibC.writeDescriptor(fd, &byte, 1)
    }

    public static func drain(_ fd: Int32) {
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &scratch, { LibC.readDescriptor(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    private static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}
