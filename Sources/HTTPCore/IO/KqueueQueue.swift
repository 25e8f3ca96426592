#if canImport(Darwin)
import Darwin

/// Darwin's kqueue, level-triggered: EVFILT_READ and EVFILT_WRITE added and deleted as the interest
/// changes. EV_EOF on the read filter is reported as readable (the read then sees end-of-stream), on
/// the write filter as a failure; EV_ERROR is a failure. kqueue has no "hang-ups only" filter (swift-nio's
/// SelectorKqueue.swift says why), so ``Interest/none`` registers nothing and reports nothing.
///
/// Changes are applied at once rather than batched into the next wait, so a change never reaches a
/// descriptor number that was closed and reused in between.
final class KqueueQueue: ReadinessQueue {
    private let queue: Int32
    private var registered: [Int32: Interest] = [:]
    // `Array(repeating:)`, not `[kevent](…)`: Darwin's `kevent` names a struct and a function, and the
    // ambiguous name does not fold into an array type.
    private var buffer: [kevent] = Array(repeating: kevent(), count: 256)

    init() throws(SocketError) {
        queue = kqueue()
        guard queue >= 0 else { throw .failed("kqueue") }
        // Not inherited by a child anyway (kqueue(2)), but say so for the descriptor too.
        _ = fcntl(queue, F_SETFD, FD_CLOEXEC)
    }

    deinit { POSIX.close(queue) }

    func add(_ fd: Int32, _ interest: Interest, exclusive: Bool) throws(SocketError) {
        let code = apply(fd, from: .none, to: interest)
        guard code == 0 else {
            throw .failed(operation: "kevent", errno: code, reason: String(cString: strerror(code)))
        }
        registered[fd] = interest
    }

    /// Keeps the interest the kernel actually has when a change fails.
    func modify(_ fd: Int32, _ interest: Interest) {
        guard let current = registered[fd], current != interest else { return }
        if apply(fd, from: current, to: interest) == 0 { registered[fd] = interest }
    }

    func remove(_ fd: Int32) {
        guard let current = registered.removeValue(forKey: fd) else { return }
        _ = apply(fd, from: current, to: .none)
    }

    func wait(timeoutMilliseconds: Int32, into events: inout [ReadinessEvent]) throws(SocketError) {
        events.removeAll(keepingCapacity: true)
        var timeout = timespec(tv_sec: Int(timeoutMilliseconds / 1_000),
                               tv_nsec: Int(timeoutMilliseconds % 1_000) * 1_000_000)
        let count = buffer.withUnsafeMutableBufferPointer { list in
            timeoutMilliseconds < 0
                ? kevent(queue, nil, 0, list.baseAddress, Int32(list.count), nil)
                : kevent(queue, nil, 0, list.baseAddress, Int32(list.count), &timeout)
        }
        if count < 0 {
            guard errno == EINTR else { throw .failed("kevent") }
            return
        }
        for index in 0..<Int(count) {
            let event = buffer[index]
            let flags = Int32(event.flags)
            let filter = Int32(event.filter)
            let error = flags & EV_ERROR != 0
            let endOfFile = flags & EV_EOF != 0
            events.append(ReadinessEvent(
                fd: Int32(truncatingIfNeeded: event.ident),
                readable: filter == EVFILT_READ,
                writable: filter == EVFILT_WRITE && !endOfFile,
                failed: error || (filter == EVFILT_WRITE && endOfFile)))
        }
    }

    /// Adds and deletes filters to go from one interest to another. EV_RECEIPT makes the kernel apply
    /// every change and report each one's result; deleting a filter that is not there (ENOENT) is fine.
    /// - Returns: 0, or the error number of the first change that failed.
    private func apply(_ fd: Int32, from old: Interest, to new: Interest) -> Int32 {
        var changes: [kevent] = []
        for (filter, was, wants) in [(EVFILT_READ, old.reads, new.reads), (EVFILT_WRITE, old.writes, new.writes)]
        where was != wants {
            changes.append(kevent(ident: UInt(fd), filter: Int16(filter),
                                  flags: UInt16((wants ? EV_ADD | EV_ENABLE : EV_DELETE) | EV_RECEIPT),
                                  fflags: 0, data: 0, udata: nil))
        }
        guard !changes.isEmpty else { return 0 }
        var receipts: [kevent] = Array(repeating: kevent(), count: changes.count)
        let count = receipts.withUnsafeMutableBufferPointer { results in
            changes.withUnsafeBufferPointer {
                kevent(queue, $0.baseAddress, Int32($0.count), results.baseAddress, Int32(results.count), nil)
            }
        }
        guard count >= 0 else { return errno }
        let failure = receipts.prefix(Int(count)).first { $0.data != 0 && $0.data != Int(ENOENT) }
        return failure.map { Int32(truncatingIfNeeded: $0.data) } ?? 0
    }
}

private extension Interest {
    var reads: Bool { self == .read || self == .readWrite }
    var writes: Bool { self == .write || self == .readWrite }
}
#endif
