#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls the test servers and clients here share: a TCP socket bound to 127.0.0.1 on a port the system
/// picks, a send of every byte that never raises SIGPIPE, and close.
public enum LoopbackSocket {
    /// A TCP socket bound to 127.0.0.1 on a free port, listening when `listening` (else it refuses connections).
    /// - Returns: The descriptor and the port.
    public static func bound(listening: Bool) throws -> (fd: Int32, port: UInt16) {
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
        guard bound, !listening || listen(fd, 16) == 0 else {
            let failure = POSIXFailure(operation: listening ? "bind/listen" : "bind")
            close(fd)
            throw failure
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Sends every byte of `bytes` on `fd`.
    /// - Returns: `false` when the peer is gone. No SIGPIPE is raised on Linux (`MSG_NOSIGNAL`); Darwin has no such
    ///   flag, so a socket sent on there is set ``noSignalOnDarwin(_:)`` once.
    @discardableResult
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let sent = bytes[offset...].withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
            #else
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #endif
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// On Darwin, sets `SO_NOSIGPIPE` on `fd`, so that a send to a peer that left fails instead of killing the test
    /// runner; nothing on Linux, where each send says so.
    public static func noSignalOnDarwin(_ fd: Int32) {
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Closes `fd`.
    public static func close(_ fd: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(fd)
        #else
        _ = Glibc.close(fd)
        #endif
    }
}
