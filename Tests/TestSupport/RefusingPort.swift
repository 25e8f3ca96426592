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
        _ = TestProcess.descriptorLimit
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw POSIXFailure(operation: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let failure = POSIXFailure(operation: "bind")
            Self.close(fd)
            throw failure
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Frees the port.
    public func close() {
        guard fd >= 0 else { return }
        Self.close(fd)
        fd = -1
    }

    deinit { close() }

    private static func close(_ fd: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(fd)
        #else
        _ = Glibc.close(fd)
        #endif
    }
}
