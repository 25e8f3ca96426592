#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import HTTPCore
@testable import MockServer
import Testing
import TestSupport

/// Descriptors the server opens are never inherited by a child process (Linux gets this from
/// SOCK_CLOEXEC, accept4 and pipe2; Darwin from fcntl after each call).
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct DescriptorTests {
    @Test func listenerAcceptedSocketAndWakePipe_AreCloseOnExec() throws {
        let listener = try POSIX.makeListener(host: "127.0.0.1", port: 0, backlog: 8)
        defer { POSIX.close(listener) }
        #expect(POSIX.isCloseOnExec(listener))

        let client = try RawClient(port: POSIX.boundPort(listener))
        var accepted: Int32 = -1
        for _ in 0..<200 where accepted < 0 {
            if case .accepted(let fd) = POSIX.accept(listener) { accepted = fd } else { usleep(5_000) }
        }
        try #require(accepted >= 0)
        defer { POSIX.close(accepted) }
        #expect(POSIX.isCloseOnExec(accepted))
        withExtendedLifetime(client) {}

        let (read, write) = try POSIX.makeWakePipe()
        defer { POSIX.close(read); POSIX.close(write) }
        #expect(POSIX.isCloseOnExec(read) && POSIX.isCloseOnExec(write))
    }

    @Test func ipv6Loopback_IsBound_AndItsPortRead() throws {
        let listener: Int32
        do {
            listener = try POSIX.makeListener(host: "::1", port: 0, backlog: 8)
        } catch {
            // A machine without IPv6 (some CI containers) cannot bind ::1 at all.
            guard case .failed(_, let code, _) = error, code == EADDRNOTAVAIL || code == EAFNOSUPPORT else {
                throw error
            }
            return
        }
        defer { POSIX.close(listener) }
        #expect(POSIX.boundPort(listener) > 0)
    }

    @Test func invalidAddress_NamesWhatToUse() {
        #expect(throws: SocketError.invalidAddress("my-mac")) { try POSIX.makeListener(host: "my-mac", port: 0, backlog: 1) }
        #expect(SocketError.invalidAddress("my-mac").description.contains("127.0.0.1, ::1"))
    }

    @Test func raisingTheDescriptorLimit_ReportsTheLimitInForce() throws {
        let before = try #require(POSIX.descriptorLimit())
        let after = try #require(POSIX.raiseDescriptorLimit(to: 1))
        #expect(after == before, "asking for less never lowers the limit")
    }
}
