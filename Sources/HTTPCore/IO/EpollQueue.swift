#if os(Linux)
import CSystemShims
import Glibc

/// Linux's epoll, level-triggered.
final class EpollQueue: ReadinessQueue {
    private let epoll: Int32
    private var buffer = [epoll_event](repeating: epoll_event(), count: 256)

    init() throws(SocketError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw .failed("epoll_create1") }
    }

    deinit { POSIX.close(epoll) }

    /// EPOLLEXCLUSIVE is accepted only together with plain EPOLLIN/EPOLLOUT.
    func add(_ fd: Int32, _ interest: Interest, exclusive: Bool) throws(SocketError) {
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

    func wait(timeoutMilliseconds: Int32, into events: inout [ReadinessEvent]) throws(SocketError) {
        events.removeAll(keepingCapacity: true)
        let count = buffer.withUnsafeMutableBufferPointer {
            epoll_wait(epoll, $0.baseAddress, Int32($0.count), timeoutMilliseconds)
        }
        if count < 0 {
            guard errno == EINTR else { throw .failed("epoll_wait") }
            return
        }
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
}
#endif
