// The calls whose spelling or behaviour differs between C libraries, for Darwin (macOS, iOS and the
// iOS Simulator). Same names as LibC+Glibc.swift. Compiled and run in the macOS CI job only: Linux builds
// the Glibc file, so each function here is the C call and little else, checked against Apple's headers and
// a Swift project that makes the same call on Darwin:
// - sockets without SOCK_CLOEXEC/accept4, FD_CLOEXEC and O_NONBLOCK by fcntl, SO_NOSIGPIPE: swift-nio
//   (NIOPosix/System.swift, BaseSocket.swift) and FlyingFox (FlyingSocks/Sources/Socket+Darwin.swift);
// - sin_len/sin6_len: FlyingFox (Socket+Darwin.swift, `makeAddressINET`);
// - `_NSGetExecutablePath` with `MachO.dyld` imported: swift-foundation (FoundationEssentials/Platform.swift);
// - kern.maxfilesperproc and hw.activecpu by `sysctlbyname`: setrlimit(2) and sysctl(3), as swift-foundation's
//   ProcessInfo reads hw.activecpu;
// - pthread_create's start routine and pthread_key_create's destructor, both taking a non-optional pointer
//   on Darwin: swift-nio (NIOPosix/ThreadPosix.swift).
#if canImport(Darwin)
import CSystemShims
import Darwin
import MachO.dyld // _NSGetExecutablePath; Darwin does not re-export it (swift-foundation imports it the same way)

public enum LibC {
    public static let name = "Darwin"

    /// A TCP socket that is not inherited by child processes (Darwin has no SOCK_CLOEXEC).
    public static func makeStreamSocket(family: Int32) -> Int32 {
        let fd = socket(family, SOCK_STREAM, 0)
        if fd >= 0 { setCloseOnExec(fd) }
        return fd
    }

    /// `SOCK_STREAM` as `addrinfo` and `socket` take it.
    public static let streamSocketType = SOCK_STREAM

    /// A non-blocking, close-on-exec TCP socket for an outgoing connection that raises no SIGPIPE, or -1 with
    /// `errno` set.
    public static func makeClientSocket(family: Int32) -> Int32 {
        let fd = socket(family, SOCK_STREAM, 0)
        guard fd >= 0 else { return fd }
        return configuredConnection(fd)
    }

    /// Accepts one connection as a non-blocking, close-on-exec socket that raises no SIGPIPE, or
    /// returns -1 with `errno` set. (Darwin has no accept4. XNU copies O_NONBLOCK and SO_NOSIGPIPE from
    /// the listener, but setting both here does not depend on that.)
    public static func acceptConnection(_ listener: Int32) -> Int32 {
        let fd = Darwin.accept(listener, nil, nil)
        guard fd >= 0 else { return fd }
        return configuredConnection(fd)
    }

    /// `fd` made close-on-exec, non-blocking and free of SIGPIPE; or closed, and -1 with `errno` set.
    private static func configuredConnection(_ fd: Int32) -> Int32 {
        setCloseOnExec(fd)
        let flags = fcntl(fd, F_GETFL, 0)
        var one: Int32 = 1
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0,
              setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
        else {
            let saved = errno
            _ = Darwin.close(fd)
            errno = saved
            return -1
        }
        return fd
    }

    /// A non-blocking, close-on-exec pipe: `(read end, write end)`, or `nil` with `errno` set.
    public static func makePipe() -> (Int32, Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            setCloseOnExec(fd)
            let flags = fcntl(fd, F_GETFL, 0)
            guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
                let saved = errno
                fds.forEach { _ = Darwin.close($0) }
                errno = saved
                return nil
            }
        }
        return (fds[0], fds[1])
    }

    /// Writes the vectors to a socket; SO_NOSIGPIPE, set at accept, keeps SIGPIPE away.
    public static func sendVectors(_ fd: Int32, _ vectors: UnsafeMutablePointer<iovec>, _ count: Int) -> Int {
        writev(fd, vectors, Int32(count))
    }

    /// Sets the length field that BSD socket addresses carry.
    public static func setLength(_ address: inout sockaddr_in) {
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    }
    public static func setLength(_ address: inout sockaddr_in6) {
        address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
    }

    /// Writes the running executable's path into `buffer`, NUL-terminated (`_NSGetExecutablePath`, from
    /// `<mach-o/dyld.h>`, called as swift-foundation's `Platform.getFullExecutablePath` calls it).
    /// - Returns: Whether it fit.
    static func executablePath(into buffer: inout [CChar]) -> Bool {
        var size = UInt32(buffer.count)
        return _NSGetExecutablePath(&buffer, &size) == 0
    }

    /// The process's environment, for posix_spawn (read in C: see `c_system_shims_environ`).
    static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { c_system_shims_environ() }

    public static let descriptorLimitResource = RLIMIT_NOFILE

    /// The highest soft descriptor limit `setrlimit` accepts. The hard limit is usually RLIM_INFINITY on
    /// macOS, but a soft limit above `kern.maxfilesperproc` fails with EINVAL (setrlimit(2)); OPEN_MAX
    /// is the documented fallback when the sysctl cannot be read.
    public static func descriptorCeiling(hardLimit: rlim_t) -> rlim_t {
        var perProcess: Int32 = 0
        var size = MemoryLayout<Int32>.size
        let ceiling = sysctlbyname("kern.maxfilesperproc", &perProcess, &size, nil, 0) == 0 && perProcess > 0
            ? rlim_t(perProcess) : rlim_t(OPEN_MAX)
        return min(hardLimit, ceiling)
    }

    public static func modificationNanoseconds(_ info: stat) -> Int {
        Int(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int(info.st_mtimespec.tv_nsec)
    }

    /// Processors currently active (`hw.activecpu`, what ProcessInfo.activeProcessorCount reports).
    public static func availableProcessors() -> Int {
        var active: Int32 = 0
        var size = MemoryLayout<Int32>.size
        if sysctlbyname("hw.activecpu", &active, &size, nil, 0) == 0, active > 0 { return Int(active) }
        return max(1, Int(sysconf(_SC_NPROCESSORS_ONLN)))
    }

    // MARK: - Threads

    public typealias Thread = pthread_t
    public typealias ThreadEntry = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?

    /// Creates a joinable thread with `stackSize` bytes of stack (rounded up to whole pages, which
    /// Darwin requires) that runs `entry(context)`. Secondary threads get only 512 KB on Darwin unless
    /// asked.
    /// - Returns: The thread, or the error number pthreads returned.
    public static func createThread(stackSize: Int, context: UnsafeMutableRawPointer, entry: ThreadEntry)
        -> Result<Thread, ThreadError>
    {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        let page = max(1, Int(sysconf(_SC_PAGESIZE)))
        let code = pthread_attr_setstacksize(&attributes, (stackSize + page - 1) / page * page)
        guard code == 0 else { return .failure(ThreadError(code: code)) }
        var thread: pthread_t?
        let created = pthread_create(&thread, &attributes, entry, context)
        guard created == 0, let thread else { return .failure(ThreadError(code: created)) }
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
            Unmanaged<AnyObject>.fromOpaque(value).release()
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

    public static func exitProcess(_ code: Int32) -> Never { Darwin.exit(code) }
    public static func closeDescriptor(_ fd: Int32) -> Int32 { Darwin.close(fd) }
    public static func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Darwin.connect(fd, address, length)
    }
    public static func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Darwin.read(fd, buffer, count)
    }
    public static func writeDescriptor(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Darwin.write(fd, buffer, count)
    }

    private static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// A ``Lock``'s mutex: a pthread mutex. `@inlinable`, as ``Lock/withLock(_:)`` is.
    public typealias Mutex = pthread_mutex_t

    public static func makeMutex() -> UnsafeMutablePointer<Mutex> {
        let mutex = UnsafeMutablePointer<Mutex>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        return mutex
    }

    public static func destroyMutex(_ mutex: UnsafeMutablePointer<Mutex>) {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable public static func lock(_ mutex: UnsafeMutablePointer<Mutex>) { pthread_mutex_lock(mutex) }

    @inlinable public static func unlock(_ mutex: UnsafeMutablePointer<Mutex>) { pthread_mutex_unlock(mutex) }

    /// Whether ``prefetchForWrite(_:)`` does anything: not on Darwin.
    @inlinable public static var prefetches: Bool { false }

    /// A hint to bring a cache line in for writing: nothing on Darwin. Swift has no prefetch of its own, and the C
    /// shims that give Linux one are Linux's only.
    @inlinable public static func prefetchForWrite(_ address: UnsafeRawPointer) {}
}
#endif
