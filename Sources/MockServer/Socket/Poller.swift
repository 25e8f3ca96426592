#if canImport(Glibc)
import CSystemShims
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which readiness a loop wants to hear about for a descriptor.
enum Interest {
    case read
    case readWrite
    /// Only writability (a peer that half-closed, with output still queued).
    case write
    /// Only hang-ups and errors (a connection that is paused, for example during a delay).
    case none
}

/// One readiness report.
struct ReadinessEvent {
    let fd: Int32
    let readable: Bool
    let writable: Bool
    let failed: Bool
}

/// The readiness API of the platform: epoll on Linux, poll(2) elsewhere (macOS), used level-triggered.
final class Poller {
    #if os(Linux)
    private let epoll: Int32
    private var buffer = [epoll_event](repeating: epoll_event(), count: 256)

    init() throws(SocketError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw .failed("epoll_create1") }
    }

    deinit { System.close(epoll) }

    /// - Parameter exclusive: wake only one of the loops waiting on a shared listener (EPOLLEXCLUSIVE,
    ///   which the kernel accepts only together with plain EPOLLIN/EPOLLOUT).
    func add(_ fd: Int32, _ interest: Interest, exclusive: Bool = false) throws(SocketError) {
        var event = epoll_event()
        event.events = exclusive ? EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue : mask(interest)
        event.data.fd = fd
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else { throw .failed("epoll_ctl") }
    }

    func modify(_ fd: Int32, _ interest: Interest) {
        var event = epoll_event()
        event.events = mask(interest)
        event.data.fd = fd
        epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event)
    }

    func remove(_ fd: Int32) {
        var event = epoll_event()
        epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    func wait(timeoutMilliseconds: Int32, into events: inout [ReadinessEvent]) {
        events.removeAll(keepingCapacity: true)
        let count = buffer.withUnsafeMutableBufferPointer {
            epoll_wait(epoll, $0.baseAddress, Int32($0.count), timeoutMilliseconds)
        }
        guard count > 0 else { return }
        for index in 0..<Int(count) {
            let event = buffer[index]
            let flags = event.events
            events.append(ReadinessEvent(
                fd: event.data.fd,
                readable: flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0,
                writable: flags & EPOLLOUT.rawValue != 0,
                failed: flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0))
        }
    }

    private func mask(_ interest: Interest) -> UInt32 {
        switch interest {
        case .read: EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        case .readWrite: EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLOUT.rawValue
        case .write: EPOLLOUT.rawValue
        case .none: 0
        }
    }
    #else
    private var interests: [Int32: Interest] = [:]

    init() throws(SocketError) {}

    func add(_ fd: Int32, _ interest: Interest, exclusive: Bool = false) throws(SocketError) {
        interests[fd] = interest
    }
    func modify(_ fd: Int32, _ interest: Interest) { interests[fd] = interest }
    func remove(_ fd: Int32) { interests[fd] = nil }

    func wait(timeoutMilliseconds: Int32, into events: inout [ReadinessEvent]) {
        events.removeAll(keepingCapacity: true)
        var fds = interests.map { fd, interest in
            let mask: Int16 = switch interest {
            case .read: Int16(POLLIN)
            case .readWrite: Int16(POLLIN | POLLOUT)
            case .write: Int16(POLLOUT)
            case .none: 0
            }
            return pollfd(fd: fd, events: mask, revents: 0)
        }
        guard poll(&fds, nfds_t(fds.count), timeoutMilliseconds) > 0 else { return }
        for entry in fds where entry.revents != 0 {
            events.append(ReadinessEvent(
                fd: entry.fd,
                readable: entry.revents & Int16(POLLIN) != 0,
                writable: entry.revents & Int16(POLLOUT) != 0,
                failed: entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0))
        }
    }
    #endif
}
