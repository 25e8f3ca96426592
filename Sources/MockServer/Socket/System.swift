// The only file of the server that talks to the C library. Every system call is wrapped here, so
// the rest of the server is platform-neutral and reads as Swift.
#if canImport(Glibc)
import CSystemShims
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum System {
    // MARK: - Sockets

    /// A non-blocking TCP listener bound to `host:port`. `port` 0 picks a free port.
    static func makeListener(host: String, port: UInt16, backlog: Int32) throws(SocketError) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        let numericHost = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, numericHost, &address.sin_addr) == 1 else { throw .invalidAddress(host) }

        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
        guard fd >= 0 else { throw .failed("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = SocketError.failed("bind to \(host):\(port)")
            close(fd)
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let error = SocketError.failed("listen")
            close(fd)
            throw error
        }
        try setNonBlocking(fd)
        return fd
    }

    /// The port a socket is bound to.
    static func boundPort(_ fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    enum AcceptResult {
        case accepted(Int32)
        case wouldBlock
        /// Out of file descriptors; the caller sheds the pending connection.
        case exhausted
        case failed(SocketError)
    }

    /// Accepts one pending connection as a non-blocking, no-delay socket.
    static func accept(_ listener: Int32) -> AcceptResult {
        while true {
            #if canImport(Darwin)
            let fd = Darwin.accept(listener, nil, nil)
            #else
            let fd = c_system_shims_accept4(listener, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            #endif
            if fd >= 0 {
                #if canImport(Darwin)
                try? setNonBlocking(fd)
                var one: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
                #endif
                var one: Int32 = 1
                // Headers and body go out in one writev, but pipelined responses must not wait for
                // a delayed ACK (40 ms per response on keep-alive otherwise).
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
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

    /// A descriptor held in reserve for when the process runs out of them.
    static func openReserve() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Raises the soft limit on open descriptors to the hard limit, for many concurrent clients.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        #if canImport(Darwin)
        let resource = RLIMIT_NOFILE
        #else
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = min(limit.rlim_max, 65_536)
        setrlimit(resource, &limit)
    }

    static func setNonBlocking(_ fd: Int32) throws(SocketError) {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw .failed("fcntl") }
    }

    enum IOResult: Equatable {
        case bytes(Int)
        case wouldBlock
        /// The peer closed its side (read) or the connection is gone (write).
        case closed
    }

    /// Reads into `buffer`'s free capacity; never blocks.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
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
    static func write(_ fd: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?) -> IOResult {
        var vectors = (
            iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
            iovec(iov_base: UnsafeMutableRawPointer(mutating: second?.baseAddress), iov_len: second?.count ?? 0))
        let count = second == nil ? 1 : 2
        return withUnsafeMutableBytes(of: &vectors) { raw in
            guard let base = raw.baseAddress else { return .closed }
            return gatherWrite(fd, base.assumingMemoryBound(to: iovec.self), count)
        }
    }

    private static func gatherWrite(_ fd: Int32, _ vectors: UnsafeMutablePointer<iovec>, _ count: Int) -> IOResult {
        while true {
            let count = writev(fd, vectors, Int32(count))
            if count >= 0 { return .bytes(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .closed
            }
        }
    }

    /// Closes so that the peer sees a TCP RST instead of an orderly FIN.
    static func abort(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }

    /// Sends FIN after the queued bytes; the peer then reads end-of-stream.
    static func shutdownWrite(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
    }

    static func close(_ fd: Int32) {
        _ = closeDescriptor(fd)
    }

    /// A blocking-free self-pipe: `(read end, write end)`, used to wake an event loop.
    static func makeWakePipe() throws(SocketError) -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .failed("pipe") }
        try setNonBlocking(fds[0])
        try setNonBlocking(fds[1])
        return (fds[0], fds[1])
    }

    static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = systemWrite(fd, &byte, 1)
    }

    static func drain(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 64)
        while systemRead(fd, &scratch, scratch.count) > 0 {}
    }

    /// Stops SIGPIPE from killing the process when a peer vanishes mid-write.
    static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes a whole line to standard output or standard error, unbuffered.
    static func writeLine(_ text: String, toStandardError: Bool = false) {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                systemWrite(toStandardError ? 2 : 1, $0.baseAddress, $0.count)
            }
            if written <= 0 { if errno == EINTR { continue } else { return } }
            offset += written
        }
    }

    // MARK: - Time and files

    /// Monotonic nanoseconds, for deadlines and durations.
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Wall-clock seconds and milliseconds since 1970.
    static func wallClock() -> (seconds: Int, milliseconds: Int) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return (Int(time.tv_sec), Int(time.tv_nsec / 1_000_000))
    }

    /// UTC calendar fields of a time: (year, month 1–12, day, hour, minute, second, weekday 0 = Sunday).
    static func utcFields(_ seconds: Int) -> (Int, Int, Int, Int, Int, Int, Int) {
        var time = time_t(seconds)
        var fields = tm()
        gmtime_r(&time, &fields)
        return (Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1, Int(fields.tm_mday), Int(fields.tm_hour),
                Int(fields.tm_min), Int(fields.tm_sec), Int(fields.tm_wday))
    }

    /// A regular file's modification time in nanoseconds and its size, or `nil` if it is not one.
    static func fileStamp(_ path: String) -> (modified: Int, size: Int)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let modified = Int(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int(info.st_mtimespec.tv_nsec)
        #else
        let modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        #endif
        return (modified, Int(info.st_size))
    }

    /// The whole file, read with plain system calls.
    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = systemRead(fd, &chunk, chunk.count)
            if count == 0 { return bytes }
            if count < 0 { if errno == EINTR { continue } else { return nil } }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    static func processorCount() -> Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    // MARK: - Threads

    /// Starts `body` on a new detached-capable thread and returns a handle to join it.
    static func startThread(_ body: @escaping @Sendable () -> Void) throws(SocketError) -> ThreadHandle {
        let box = Unmanaged.passRetained(ThreadBody(body))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, { raw in
            #if canImport(Darwin)
            let box = Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue()
            #else
            let box = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw .failed("pthread_create")
        }
        #if canImport(Darwin)
        guard let thread else { throw .failed("pthread_create") }
        #endif
        return ThreadHandle(thread: thread)
    }

    struct ThreadHandle: @unchecked Sendable {
        // @unchecked: a pthread_t is an opaque id, joined once by the owner that started it.
        let thread: pthread_t
        func join() { pthread_join(thread, nil) }
    }

    private final class ThreadBody {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(fd)
        #else
        Glibc.close(fd)
        #endif
    }

    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(fd, buffer, count)
        #else
        Glibc.read(fd, buffer, count)
        #endif
    }

    private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(fd, buffer, count)
        #else
        Glibc.write(fd, buffer, count)
        #endif
    }
}
