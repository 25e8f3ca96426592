#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX poll(2), level-triggered: the portable backend. The descriptor array is kept between waits and
/// changed in place, so a wait costs one system call and one pass over the ready entries.
///
/// With an empty interest (``Interest/none``), Linux still reports POLLHUP and POLLERR; Darwin reports
/// nothing. Darwin's poll(2) also refuses more than OPEN_MAX (10,240) descriptors with EINVAL, so a loop
/// takes no more than that: a connection beyond it is refused at accept instead of ending the loop.
final class PollQueue: ReadinessQueue {
    #if canImport(Darwin)
    static let capacity = Int(OPEN_MAX)
    #else
    static let capacity = Int.max
    #endif

    private var entries: [pollfd] = []
    /// Where each descriptor's entry is in `entries`.
    private var slots: [Int32: Int] = [:]

    func add(_ fd: Int32, _ interest: Interest, exclusive: Bool) throws(SocketError) {
        if let slot = slots[fd] {
            entries[slot].events = Self.mask(interest)
            return
        }
        guard entries.count < Self.capacity else {
            throw .failed(operation: "poll: more than \(Self.capacity) descriptors in one loop", errno: EMFILE,
                          reason: String(cString: strerror(EMFILE)))
        }
        slots[fd] = entries.count
        entries.append(pollfd(fd: fd, events: Self.mask(interest), revents: 0))
    }

    func modify(_ fd: Int32, _ interest: Interest) {
        guard let slot = slots[fd] else { return }
        entries[slot].events = Self.mask(interest)
    }

    func remove(_ fd: Int32) {
        guard let slot = slots.removeValue(forKey: fd) else { return }
        let last = entries.removeLast()
        if slot < entries.count {
            entries[slot] = last
            slots[last.fd] = slot
        }
    }

    func wait(timeoutMilliseconds: Int32, into events: inout [ReadinessEvent]) throws(SocketError) {
        events.removeAll(keepingCapacity: true)
        let count = entries.withUnsafeMutableBufferPointer {
            poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
        }
        if count < 0 {
            // Anything but an interruption (EINVAL, EFAULT, ENOMEM) must stop the loop, not spin it.
            guard errno == EINTR else { throw .failed("poll") }
            return
        }
        var remaining = Int(count)
        for entry in entries where remaining > 0 && entry.revents != 0 {
            remaining -= 1
            let revents = Int32(entry.revents)
            events.append(ReadinessEvent(
                fd: entry.fd,
                readable: revents & Int32(POLLIN) != 0,
                writable: revents & Int32(POLLOUT) != 0,
                failed: revents & Int32(POLLERR | POLLHUP | POLLNVAL) != 0))
        }
    }

    private static func mask(_ interest: Interest) -> Int16 {
        switch interest {
        case .read: Int16(POLLIN)
        case .readWrite: Int16(POLLIN | POLLOUT)
        case .write: Int16(POLLOUT)
        case .none: 0
        }
    }
}
