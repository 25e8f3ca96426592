#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call of the socket layer, with the operating system's reason.
public enum SocketError: Error, Equatable, CustomStringConvertible {
    case failed(operation: String, errno: Int32, reason: String)
    case invalidAddress(String)
    /// An I/O backend this platform does not have (``IOBackend``).
    case unavailableBackend(String)

    /// Captures the current `errno` for `operation`.
    public static func failed(_ operation: String) -> SocketError {
        let code = errno
        return .failed(operation: operation, errno: code, reason: String(cString: strerror(code)))
    }

    public var description: String {
        switch self {
        case .failed(let operation, let code, let reason):
            code == EADDRINUSE ? "address already in use (is another server running there? --port 0 picks a free port)"
                : "\(operation): \(reason)"
        case .invalidAddress(let host):
            "\(host) is not an IP address; use for example 127.0.0.1, ::1, or 0.0.0.0 for devices on the LAN"
        case .unavailableBackend(let name):
            "I/O backend \(name) is not available on this platform; available: "
                + IOBackend.available.map(\.description).joined(separator: ", ")
        }
    }

    /// `host:port`, with an IPv6 host in brackets as URLs write it.
    public static func display(host: String, port: UInt16) -> String {
        (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + ":\(port)"
    }
}

/// An error number a pthreads call returned (they do not set `errno`).
public struct ThreadError: Error {
    public let code: Int32
    public var reason: String { String(cString: strerror(code)) }
}
