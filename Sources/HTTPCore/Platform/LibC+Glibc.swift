// The calls whose spelling or behaviour differs between C libraries, for Glibc (Linux). The Darwin file
// has the same names; nothing outside Platform/ and IO/ imports a C library.
#if canImport(Glibc)
import CSystemShims
import Glibc

public enum LibC {
    public static let name = "Glibc"

    /// A TCP socket that is not inherited by child processes.
    public static func makeStreamSocket(family: Int32) -> Int32 {
        socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// `SOCK_STREAM` as `addrinfo` and `socket` take it.
    public static let streamSocketType = Int32(SOCK_STREAM.rawValue)

    /// A non-blocking, close-on-exec TCP socket for an outgoing connection (SIGPIPE is kept away per send, by
    /// ``sendVectors(_:_:_:)``).
    public static func makeClientSocket(family: Int32) -> Int32 {
        socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    }

    /// Accepts one connection as a non-blocking, close-on-exec socket, or returns -1 with `errno` set.
    public static func acceptConnection(_ listener: Int32) -> Int32 {
        c_system_shims_accept4(listener, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
    }

    /// A non-blocking, close-on-exec pipe: `(read end, write end)`, or `nil` with `errno` set.
    public static func makePipe() -> (Int32, Int32)? {
        var fds: [Int32] = [-1, -1]
        guard c_system_shims_pipe2(&fds, O_CLOEXEC | O_NONBLOCK) == 0 else { return nil }
        return (fds[0], fds[1])
    }

    /// Writes the vectors to a socket. `MSG_NOSIGNAL` keeps a vanished peer from raising SIGPIPE, so an
    /// embedding process keeps its own SIGPIPE disposition.
    public static func sendVectors(_ fd: Int32, _ vectors: UnsafeMutablePointer<iovec>, _ count: Int) -> Int {
        var message = msghdr()
        message.msg_iov = vectors
        message.msg_iovlen = count
        return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
    }

    /// Sets the length field that BSD socket addresses carry (Linux has none).
    public static func setLength(_ address: inout sockaddr_in) {}
    public static func setLength(_ address: inout sockaddr_in6) {}

    /// Writes the running executable's path into `buffer`, NUL-terminated: `/proc/self/exe`'s target.
    /// - Returns: Whether it fit and could be read.
    static func executablePath(into buffer: inout [CChar]) -> Bool {
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return false }
        buffer[count] = 0
        return true
    }

    /// The process's environment, for posix_spawn.
    static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { environ }

    public static let descriptorLimitResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

    /// The highest soft descriptor limit `setrlimit` accepts: Linux honours the hard limit as it is.
    public static func descriptorCeiling(hardLimit: rlim_t) -> rlim_t { hardLimit }

    public static func modificationNanoseconds(_ info: stat) -> Int {
        Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
    }

    /// CPUs this process may use: the affinity mask (`taskset`, a container's `cpuset`), further capped by
    /// a cgroup CPU quota (`docker --cpus`, Kubernetes limits), which the mask does not show.
    public static func availableProcessors() -> Int {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let affinity = Int(c_system_shims_affinity_cpu_count())
        var count = affinity > 0 ? affinity : max(1, online)
        if let quota = CPUQuota.current() { count = min(count, quota) }
        return max(1, count)
    }

    // MARK: - Threads

    public typealias Thread = pthread_t
    public typealias ThreadEntry = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?

    /// Creates a joinable thread with `stackSize` bytes of stack (rounded up to whole pages) that runs
    /// `entry(context)`.
    /// - Returns: The thread, or the error number pthreads returned.
    public static func createThread(stackSize: Int, context: UnsafeMutableRawPointer, entry: ThreadEntry)
        -> Result<Thread, ThreadError>
    {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        let page = max(1, Int(sysconf(Int32(_SC_PAGESIZE))))
        let code = pthread_attr_setstacksize(&attributes, (stackSize + page - 1) / page * page)
        guard code == 0 else { return .failure(ThreadError(code: code)) }
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, entry, context)
        guard created == 0 else { return .failure(ThreadError(code: created)) }
        return .success(thread)
    }

    public static func joinThread(_ thread: Thread) {
        pthread_join(thread, nil)
    }

    public static func detachThread(_ thread: Thread) {
        pthread_detach(thread)
    }

    public typealias ThreadKey = pthread_key_t

    /// A key under which each thread may store one object (`pthread_key_create`), retained by whoever stores it
    /// (``PerThread``) and released when its thread ends; `nil` when the process has no key left.
    static func makeObjectKey() -> ThreadKey? {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { value in
            if let value { Unmanaged<AnyObject>.fromOpaque(value).release() }
        }
        return created == 0 ? key : nil
    }

    @inlinable static func threadValue(_ key: ThreadKey) -> UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    /// - Returns: Whether it was stored (`pthread_setspecific` can run out of memory).
    @usableFromInline static func setThreadValue(_ key: ThreadKey, _ value: UnsafeMutableRawPointer) -> Bool {
        pthread_setspecific(key, value) == 0
    }

    // MARK: - Calls whose names the wrappers reuse

    public static func exitProcess(_ code: Int32) -> Never { Glibc.exit(code) }
    public static func closeDescriptor(_ fd: Int32) -> Int32 { Glibc.close(fd) }
    public static func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.connect(fd, address, length)
    }
    public static func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }
    public static func writeDescriptor(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Glibc.write(fd, buffer, count)
    }

    /// A ``Lock``'s mutex: one word, taken and given back by an atomic instruction each, its waiters asleep in
    /// futex(2) (see `c_system_shims_lock`). `@inlinable`, as ``Lock/withLock(_:)`` is.
    public typealias Mutex = UInt32

    public static func makeMutex() -> UnsafeMutablePointer<Mutex> {
        let mutex = UnsafeMutablePointer<Mutex>.allocate(capacity: 1)
        mutex.initialize(to: 0)
        return mutex
    }

    public static func destroyMutex(_ mutex: UnsafeMutablePointer<Mutex>) { mutex.deallocate() }

    @inlinable public static func lock(_ mutex: UnsafeMutablePointer<Mutex>) { c_system_shims_lock(mutex) }

    @inlinable public static func unlock(_ mutex: UnsafeMutablePointer<Mutex>) { c_system_shims_unlock(mutex) }

    /// Whether ``prefetchForWrite(_:)`` does anything: a caller skips the work of finding what to ask for when not.
    /// (A computed constant: a stored one would be a lazy global, looked up through `swift_once` on each use.)
    @inlinable public static var prefetches: Bool { true }

    /// Asks the CPU to bring the cache line at `address` in for writing, without waiting for it: a hint, which never
    /// faults, for memory a later step writes (the journal's next slot). `@inlinable`: the mock layer calls it.
    @inlinable public static func prefetchForWrite(_ address: UnsafeRawPointer) { c_system_shims_prefetch_for_write(address) }
}
#endif
