#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which addresses are this machine's own: loopback, the peer of a connection, every interface's.
extension POSIX {
    /// Whether `text` is a numeric loopback address: 127.0.0.0/8, `::1`, or `::ffff:127.x.x.x`.
    public static func isLoopbackAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { isLoopbackIPv6(Array($0)) }
    }

    /// Whether the peer of a connected socket is on this machine's loopback interface.
    public static func isLoopbackPeer(_ fd: Int32) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard result == 0 else { return false }
        return withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
                }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var address = $0.pointee.sin6_addr
                    return withUnsafeBytes(of: &address) { isLoopbackIPv6(Array($0)) }
                }
            default:
                false
            }
        }
    }

    /// The numeric addresses of this machine's interfaces that are up, loopback excluded: what a device
    /// on the same network can reach the server at. IPv4 first.
    public static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var v4: [String] = []
        var v6: [String] = []
        for interface in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(interface.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                  let address = interface.pointee.ifa_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    var raw = $0.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
                v4.append(string(nulTerminated: text))
            case AF_INET6:
                let linkLocal = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var raw = pointer.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                    return withUnsafeBytes(of: &raw) { $0[0] == 0xFE && $0[1] & 0xC0 == 0x80 }
                }
                // Link-local addresses need a zone (%en0) that URLs and Host headers rarely carry.
                if !linkLocal { v6.append(string(nulTerminated: text)) }
            default:
                continue
            }
        }
        return v4 + v6
    }

    private static func isLoopbackIPv6(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return false }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        // An IPv4-mapped loopback address, as a dual-stack listener sees IPv4 peers.
        return bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }

    /// The canonical absolute path of `path` with every symbolic link resolved, or `nil` when it does
    /// not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
