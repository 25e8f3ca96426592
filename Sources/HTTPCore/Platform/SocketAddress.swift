#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address and port to bind, parsed from what a user types: `127.0.0.1`, `0.0.0.0`,
/// `localhost`, `::1`, `[::1]`, `::`.
public struct SocketAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage

    /// - Throws: ``SocketError/invalidAddress(_:)`` when `host` is not a numeric address or `localhost`.
    public init(host: String, port: UInt16) throws(SocketError) {
        var text = host == "localhost" ? "127.0.0.1" : host
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.contains(":") {
            var address = sockaddr_in6()
            LibC.setLength(&address)
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, text, &address.sin6_addr) == 1 else { throw .invalidAddress(host) }
            storage = .v6(address)
        } else {
            var address = sockaddr_in()
            LibC.setLength(&address)
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else { throw .invalidAddress(host) }
            storage = .v4(address)
        }
    }

    /// The address a resolver returned, or `nil` for a family other than IPv4 and IPv6.
    init?(info address: UnsafeMutablePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET: storage = .v4(address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee })
        case AF_INET6: storage = .v6(address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee })
        default: return nil
        }
    }

    public var family: Int32 {
        switch storage {
        case .v4: AF_INET
        case .v6: AF_INET6
        }
    }

    /// Whether this is the IPv6 wildcard `::`, which the listener makes dual-stack.
    public var isIPv6Wildcard: Bool {
        guard case .v6(let address) = storage else { return false }
        return withUnsafeBytes(of: address.sin6_addr) { $0.allSatisfy { $0 == 0 } }
    }

    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        switch storage {
        case .v4(var address):
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .v6(var address):
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }

    /// The port a socket is bound to, IPv4 or IPv6.
    public static func boundPort(of fd: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return 0 }
        return withUnsafePointer(to: &storage) { pointer in
            if Int32(pointer.pointee.ss_family) == AF_INET6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        }
    }
}
