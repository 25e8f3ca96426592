#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Clocks, the processors and descriptors the process may use, and process-wide settings that only the
/// executable changes (an embedding test runner owns them).
extension POSIX {
    // MARK: - Time

    /// Monotonic nanoseconds, for deadlines and durations.
    public static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Wall-clock seconds and milliseconds since 1970.
    public static func wallClock() -> (seconds: Int, milliseconds: Int) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return (Int(time.tv_sec), Int(time.tv_nsec / 1_000_000))
    }

    /// UTC calendar fields of a time: (year, month 1–12, day, hour, minute, second, weekday 0 = Sunday).
    public static func utcFields(_ seconds: Int) -> (Int, Int, Int, Int, Int, Int, Int) {
        var time = time_t(seconds)
        var fields = tm()
        gmtime_r(&time, &fields)
        return (Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1, Int(fields.tm_mday), Int(fields.tm_hour),
                Int(fields.tm_min), Int(fields.tm_sec), Int(fields.tm_wday))
    }

    /// Sleeps the calling thread.
    public static func sleep(milliseconds: Int) {
        usleep(useconds_t(milliseconds * 1_000))
    }

    // MARK: - What the process may use

    /// Processors this process may run on: on Linux the affinity mask and the cgroup CPU quota, on
    /// Darwin the active processor count.
    public static func availableProcessors() -> Int {
        LibC.availableProcessors()
    }

    /// The soft limit on open descriptors, or `nil` if it cannot be read.
    public static func descriptorLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(LibC.descriptorLimitResource, &limit) == 0 else { return nil }
        return Int(clamping: limit.rlim_cur) // RLIM_INFINITY clamps to Int.max
    }

    /// Raises the soft limit on open descriptors as far as the system accepts, at most to `wanted`.
    /// - Returns: the limit in force afterwards, whether or not it could be raised.
    @discardableResult
    public static func raiseDescriptorLimit(to wanted: Int = 65_536) -> Int? {
        var limit = rlimit()
        guard getrlimit(LibC.descriptorLimitResource, &limit) == 0 else { return nil }
        let target = min(rlim_t(wanted), LibC.descriptorCeiling(hardLimit: limit.rlim_max))
        // If the system refuses the ceiling, fall back to macOS's documented OPEN_MAX (10,240), then lower.
        for candidate in [target, min(target, 10_240), min(target, 4_096)] where candidate > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = candidate
            if setrlimit(LibC.descriptorLimitResource, &raised) == 0 { break }
        }
        return descriptorLimit()
    }

    /// Stops SIGPIPE from killing the process when a peer vanishes mid-write. The server's own sockets
    /// never raise it; this is for the executable's other writes (a closed stdout pipe).
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// The value of environment variable `name`, if set.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Ends the process with `code`.
    public static func exit(_ code: Int32) -> Never {
        LibC.exitProcess(code)
    }

    // MARK: - Output

    /// Writes a whole line to standard output or standard error, unbuffered.
    public static func writeLine(_ text: String, toStandardError: Bool = false) {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                LibC.writeDescriptor(toStandardError ? 2 : 1, $0.baseAddress, $0.count)
            }
            if written <= 0 { if errno == EINTR { continue } else { return } }
            offset += written
        }
    }
}
