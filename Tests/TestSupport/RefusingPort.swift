#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback TCP port that refuses connections while this object is open: a socket bound to
/// 127.0.0.1 on a port the system picks, never listening. Unlike a port freed by stopping a server,
/// nobody else can bind it (and start answering) meanwhile.
public final class RefusingPort {
    public let port: UInt16
    private var fd: Int32

    public init() throws {
        (fd, port) = try LoopbackSocket.bound(listening: false)
    }

    /// Frees the port.
    public func close() {
        guard fd >= 0 else { return }
        LoopbackSocket.close(fd)
        fd = -1
    }

    deinit { close() }
}
